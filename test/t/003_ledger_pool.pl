# pgdp ledger pool: releases keep being charged while other sessions hold every parallel worker
# they can get (issue 8, part 4).
#
# The ledger workers are static background workers (pgdp.ledger_workers, here 2) whose
# max_worker_processes slots are reserved at server start. With max_worker_processes = 4 (no
# logical replication launcher) an ordinary session can take the 2 other slots with parallel
# workers; then:
#   1. releases still succeed and are charged exactly once, after the ledger worker of the
#      database went idle and exited, and in a database that never had a worker;
#   2. DROP DATABASE of a database whose worker served releases succeeds once it is idle;
#   3. with both pool workers bound to other databases (and frozen with SIGSTOP so they cannot
#      move on), a release in a third database fails after pgdp.charge_timeout with 53000, a hint
#      naming pgdp.ledger_workers, and charges nothing; once they run again, releases in three
#      databases at once all succeed (a worker with nothing to do hands itself on);
#   4. a pool worker terminated with SIGTERM is started again and charges the next release; one
#      killed with SIGKILL causes crash recovery, the charge it committed is kept, and releases
#      work afterwards.
#
# Run by scripts/test.sh (as an unprivileged user, from a copy of test/t).

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(time);

my $release_sql = 'SELECT dp_count(0.1) FROM t;';
my $release_re = qr/^-?\d+$/;

my $node = PostgreSQL::Test::Cluster->new('ledger_pool');
$node->init;
$node->append_conf(
	'postgresql.conf', qq{
shared_preload_libraries = 'pgdp'
pgdp.ledger_workers = 2
max_worker_processes = 4
max_logical_replication_workers = 0
max_parallel_workers = 8
fsync = on
synchronous_commit = on
restart_after_crash = on
});
$node->start;

is(scalar $node->psql('postgres', 'SHOW pgdp.ledger_workers'), 0, 'pgdp.ledger_workers exists');

$node->safe_psql('postgres', 'CREATE ROLE alice LOGIN; CREATE ROLE mallory LOGIN;');

sub setup_database
{
	my ($db) = @_;
	$node->safe_psql(
		$db, q{
CREATE EXTENSION pgdp;
CREATE TABLE t AS SELECT g AS x FROM generate_series(1, 100) g;
GRANT SELECT ON t TO alice;
SELECT pgdp.set_budget('alice', epsilon => 10, delta => 0);
});
	return;
}

# One release as alice; returns (exit code, stdout, stderr).
sub release
{
	my ($db, $settings) = @_;
	my $sql = ($settings // '') . $release_sql;
	return $node->psql($db, $sql, extra_params => [ '-U', 'alice', '-v', 'VERBOSITY=verbose' ]);
}

sub release_ok
{
	my ($db, $what) = @_;
	my ($ret, $stdout, $stderr) = release($db);
	is($ret, 0, "$what: the release succeeds") or diag($stderr);
	like($stdout, $release_re, "$what: one released count");
	return;
}

# Releases and epsilon spent in the budget, and ledger rows, of alice in one database.
sub charged
{
	my ($db) = @_;
	return $node->safe_psql($db,
		q{SELECT b.releases || '|' || b.epsilon_spent || '|' || (SELECT count(*) FROM pgdp.ledger l WHERE l.role = b.role) }
		  . q{FROM pgdp.budgets b WHERE b.role = 'alice'::regrole});
}

# Ledger workers connected to a database (an unbound pool worker has none and is not listed).
sub connected_workers
{
	my ($db) = @_;
	my $filter = defined $db ? "datname = '$db'" : 'datname IS NOT NULL';
	return $node->safe_psql('postgres',
		"SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pgdp ledger worker' AND $filter");
}

sub worker_pid
{
	my ($db) = @_;
	return $node->safe_psql('postgres',
		"SELECT pid FROM pg_stat_activity WHERE backend_type = 'pgdp ledger worker' AND datname = '$db'");
}

sub wait_idle_exit
{
	my ($db, $what) = @_;
	ok( $node->poll_query_until(
			'postgres',
			"SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pgdp ledger worker' AND datname = '$db'",
			'0'),
		"$what: the ledger worker of $db exits when idle");
	return;
}

setup_database('postgres');
release_ok('postgres', 'before the parallel workers');
is(connected_workers('postgres'), '1', 'one pool worker serves postgres after its release');

wait_idle_exit('postgres', 'before the parallel workers');

# ---------------------------------------------------------------------------
# mallory takes every free worker slot: a parallel scan whose filter sleeps in each worker.
$node->safe_psql(
	'postgres', q{
CREATE TABLE big AS SELECT g AS x FROM generate_series(1, 20000) g;
ALTER TABLE big SET (parallel_workers = 8);
GRANT SELECT ON big TO mallory;
CREATE FUNCTION hold(integer) RETURNS boolean LANGUAGE plpgsql PARALLEL SAFE
  AS $$ BEGIN PERFORM pg_sleep(0.05); RETURN true; END $$;
});
my $parallel_settings = 'SET max_parallel_workers_per_gather = 8; SET parallel_setup_cost = 0; '
  . 'SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; ';
my @occupiers;
for my $i (1 .. 2)
{
	my $session = $node->background_psql('postgres', extra_params => [ '-U', 'mallory' ], on_error_stop => 0);
	$session->query_safe($parallel_settings);
	$session->query_until(qr/started/, "\\echo started\nSELECT count(*) FROM big WHERE hold(x);\n");
	push @occupiers, $session;
}
my $parallel_workers =
  "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'parallel worker'";
ok($node->poll_query_until('postgres', "SELECT ($parallel_workers) >= 2", 't'),
	'mallory\'s queries hold parallel workers');
is($node->safe_psql('postgres', $parallel_workers), '2',
	'2 of them: every slot the pool of 2 leaves in max_worker_processes = 4');
like(
	$node->safe_psql(
		'postgres', $parallel_settings
		  . 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM big WHERE x < 0'),
	qr/Workers Launched: 0/,
	'no worker slot is free: another parallel query launches no worker');

is(connected_workers(undef), '0', 'no ledger worker is connected to any database');
release_ok('postgres', 'slots held, after the worker of postgres exited');
is(charged('postgres'), '2|0.2|2', 'postgres: 2 releases, epsilon 0.2, 2 ledger rows');

$node->safe_psql('postgres', 'CREATE DATABASE db2');
setup_database('db2');
release_ok('db2', 'slots held, in a database that never had a worker');
release_ok('db2', 'slots held, a second release in db2');
is(charged('db2'), '2|0.2|2', 'db2: 2 releases, epsilon 0.2, 2 ledger rows');
is($node->safe_psql('postgres', $parallel_workers), '2', 'mallory still held both parallel workers while the releases were charged');

# DROP DATABASE waits up to 5 s for other sessions; the idle worker leaves after 3 s.
my ($ret, $stdout, $stderr) = $node->psql('postgres', 'DROP DATABASE db2');
is($ret, 0, 'DROP DATABASE db2 right after its releases succeeds (its worker leaves when idle)')
  or diag($stderr);

# ---------------------------------------------------------------------------
# More databases than pool workers.
$node->safe_psql('postgres', 'CREATE DATABASE db3');
$node->safe_psql('postgres', 'CREATE DATABASE db4');
setup_database($_) for qw(db3 db4);
release_ok('db3', 'db3');
release_ok('db4', 'db4');
my $pid3 = worker_pid('db3');
my $pid4 = worker_pid('db4');
like($pid3 . ' ' . $pid4, qr/^\d+ \d+$/, 'both pool workers are bound: to db3 and db4');
# Frozen, they cannot move on to the database that waits.
kill 'STOP', $pid3, $pid4;
is($node->safe_psql('postgres', "SELECT count(*) FROM pg_stat_activity WHERE pid IN ($pid3, $pid4)"),
	'2', 'both were still bound when frozen');
my $t0 = time;
($ret, $stdout, $stderr) = release('postgres', 'SET pgdp.charge_timeout = 300; ');
my $waited = time - $t0;
kill 'CONT', $pid3, $pid4;
isnt($ret, 0, 'with every pool worker bound elsewhere, the release fails');
is($stdout, '', 'and releases nothing');
like($stderr, qr/53000/, 'with SQLSTATE 53000 (insufficient_resources)');
like($stderr, qr/every pgdp ledger worker is serving another database/, 'saying why');
like($stderr, qr/HINT:.*pgdp\.ledger_workers/, 'with a hint naming pgdp.ledger_workers');
cmp_ok($waited, '>=', 0.3, 'after waiting pgdp.charge_timeout (300 ms)');
is(charged('postgres'), '2|0.2|2', 'postgres: nothing more charged');

# Three databases at once with two workers: the idle ones hand themselves on.
my @clients;
for my $db (qw(postgres db3 db4))
{
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start(
		[ 'psql', '-XAtq', '-U', 'alice', '-d', $node->connstr($db), '-c', $release_sql ],
		'>', \$out, '2>', \$err);
	push @clients, [ $db, $h, \$out, \$err ];
}
for my $c (@clients)
{
	my ($db, $h, $out, $err) = @$c;
	ok($h->finish, "concurrent release in $db succeeds") or diag($$err);
	like($$out, $release_re, "concurrent release in $db: one released count");
}
is(charged('postgres'), '3|0.3|3', 'postgres: 3 releases');
is(charged('db3'), '2|0.2|2', 'db3: 2 releases');
is(charged('db4'), '2|0.2|2', 'db4: 2 releases');

# ---------------------------------------------------------------------------
# Pool workers stopped from outside.
release_ok('postgres', 'before SIGTERM');
my $pid = worker_pid('postgres');
like($pid, qr/^\d+$/, 'the worker serving postgres is running');
$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid)");
release_ok('postgres', 'after SIGTERM of its worker');
isnt(worker_pid('postgres'), $pid, 'another process charged it');
is(charged('postgres'), '5|0.5|5', 'postgres: 5 releases, each charged once');

# Free mallory's slots before the crash cycle (it would end her sessions anyway).
$node->safe_psql('postgres', q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE usename = 'mallory'});
$_->quit for @occupiers;

release_ok('postgres', 'before SIGKILL');
$pid = worker_pid('postgres');
like($pid, qr/^\d+$/, 'the worker serving postgres is running');
kill 'KILL', $pid;
# psql started while the postmaster resets may die before reading its input (IPC::Run then croaks
# "Broken pipe" on a loaded machine): such a poll is tried again.
my $back = 0;
for my $try (1 .. 60) {
	$back = eval { $node->poll_query_until('postgres', 'SELECT pg_is_in_recovery() = false', 't') };
	last if $back;
	sleep 1;
}
ok($back, 'the server is back after the crash cycle');
is(charged('postgres'), '6|0.6|6', 'the charge committed before SIGKILL is kept');
release_ok('postgres', 'after SIGKILL of a pool worker');
is(charged('postgres'), '7|0.7|7', 'postgres: 7 releases, each charged once');
ok($node->log_contains('terminated by signal 9'), 'the server log shows the killed worker');

$node->stop;
done_testing();
