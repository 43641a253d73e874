
# pgdp 0.3/0.4: per-role privacy budgets charged by the ledger worker (0.4: the ledger is
# pgdp.charges, one row per charge, read one row per release through the view pgdp.ledger).
#
# The ledger's promises, each checked against a real cluster:
#   1. a charge is committed before the release, so ROLLBACK does not undo it;
#   2. a charge survives SIGKILL of the analyst's backend (and the crash recovery it triggers),
#      and the ledger worker charges again once the server is back;
#   3. concurrent sessions cannot overspend: 8 sessions x 5 attempts against a budget of exactly
#      8 releases give exactly 8 releases, 32 refusals, 8 ledger rows and epsilon_spent = 0.8
#      (and against 5 releases: exactly 5, 35, 5 and 0.5);
#   4. neither a fast restart nor an immediate shutdown (crash recovery) loses or changes
#      anything, and refused roles stay refused.
# Refused queries (53400 budget exhausted, 42501 no budget) release nothing and charge nothing.
#
# Run by scripts/test.sh (as an unprivileged user, from a copy of test/t).

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $timeout = $PostgreSQL::Test::Utils::timeout_default;

# One release = one dp_count(0.1): pure epsilon-DP, epsilon 0.1, delta 0.
my $release_sql = 'SELECT dp_count(0.1) FROM t;';
# A released dp_count as psql -At prints it (noise may make it negative).
my $release_re = qr/^-?\d+$/;

# ---------------------------------------------------------------------------
# Cluster: pgdp preloaded, and durable. PostgreSQL::Test::Cluster->init writes fsync = off and
# restart_after_crash = off; this test is about durability and crash recovery, so turn both back
# on (synchronous_commit is on by default, said explicitly all the same).
my $node = PostgreSQL::Test::Cluster->new('budget_ledger');
$node->init;
$node->append_conf(
	'postgresql.conf', qq{
shared_preload_libraries = 'pgdp'
max_worker_processes = 16
fsync = on
synchronous_commit = on
restart_after_crash = on
});
$node->start;

# Waits until releases can be charged again (after start, restart or crash recovery).
sub wait_ledger_ready
{
	my ($what) = @_;
	ok($node->poll_query_until('postgres', 'SELECT 1', '1'),
		"$what: server accepts connections");
	ok($node->poll_query_until('postgres', 'SELECT pgdp.ledger_ready()', 't'),
		"$what: pgdp.ledger_ready() is true");
	return;
}

$node->safe_psql(
	'postgres', q{
CREATE EXTENSION pgdp;
CREATE ROLE alice LOGIN;
CREATE ROLE bob LOGIN;
CREATE ROLE carol LOGIN;
CREATE ROLE dave LOGIN;
CREATE TABLE t AS SELECT g AS x FROM generate_series(1, 100) g;
GRANT SELECT ON t TO alice, bob, carol, dave;
});
ok( $node->safe_psql('postgres',
		"SELECT to_regclass('pgdp.budgets') IS NOT NULL AND to_regclass('pgdp.ledger') IS NOT NULL"
	) eq 't',
	'CREATE EXTENSION pgdp creates pgdp.budgets and pgdp.ledger');
wait_ledger_ready('after CREATE EXTENSION');

# alice: room for 8 releases, spread over tests 1, 2 and 4. bob (8 releases) and dave (5): all
# contested in test 3. carol: no budget at all.
$node->safe_psql('postgres', q{
SELECT * FROM pgdp.set_budget('alice', epsilon => 0.8, delta => 0);
SELECT * FROM pgdp.set_budget('bob', epsilon => 0.8, delta => 0);
SELECT * FROM pgdp.set_budget('dave', epsilon => 0.5, delta => 0);
});
is( $node->safe_psql(
		'postgres',
		"SELECT role, epsilon_limit, delta_limit = 0, accounting, epsilon_spent = 0, releases "
		  . "FROM pgdp.budgets ORDER BY role::text"),
	"alice|0.8|t|basic|t|0\nbob|0.8|t|basic|t|0\ndave|0.5|t|basic|t|0",
	'set_budget: epsilon 0.8 for alice and bob, 0.5 for dave, delta 0, basic accounting, nothing spent');

# ---------------------------------------------------------------------------
# Helpers

sub psql_as
{
	my ($role, $sql, %params) = @_;
	return $node->psql('postgres', $sql, extra_params => [ '-U', $role ], %params);
}

# Whole-ledger and whole-budgets snapshots (every column, in a stable order).
sub ledger_count
{
	return $node->safe_psql('postgres', 'SELECT count(*) FROM pgdp.ledger');
}

sub ledger_rows
{
	return $node->safe_psql('postgres',
		'SELECT coalesce(string_agg(l::text, E\'\n\' ORDER BY l.charge_id, l.release), \'\') FROM pgdp.ledger l');
}

sub budget_rows
{
	return $node->safe_psql('postgres',
		'SELECT coalesce(string_agg(b::text, E\'\n\' ORDER BY b.role::text), \'\') FROM pgdp.budgets b');
}

# One release as $role is refused with $sqlstate and a message matching $message_re; nothing is
# printed and the ledger and budgets do not change.
sub check_refused
{
	my ($role, $sqlstate, $message_re, $what) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;

	my $ledger_before = ledger_rows();
	my $budgets_before = budget_rows();
	my ($ret, $stdout, $stderr) =
	  psql_as($role, "\\set VERBOSITY verbose\n$release_sql");
	is($ret, 3, "$what: ${role}'s release fails");
	is($stdout, '', "$what: nothing is released to $role");
	like($stderr, qr/ERROR:\s+$sqlstate: $message_re/,
		"$what: $role is refused with SQLSTATE $sqlstate");
	is(ledger_rows(), $ledger_before, "$what: ${role}'s refused query adds no ledger row");
	is(budget_rows(), $budgets_before, "$what: ${role}'s refused query changes no budget");
	return;
}

# epsilon_spent of $role equals the exact decimal $expected (numeric equality: 0.1 and 0.10 are
# the same amount, 0.30000000000000004 is not 0.3).
sub epsilon_spent_is
{
	my ($role, $expected, $name) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my $got = $node->safe_psql('postgres',
		"SELECT epsilon_spent, epsilon_spent = ${expected}::numeric FROM pgdp.budgets WHERE role = '$role'::regrole");
	my ($spent, $equal) = split /\|/, $got;
	ok(defined $equal && $equal eq 't', $name)
	  or diag("epsilon_spent of $role is " . ($spent // '(no budget row)') . ", expected $expected");
	return;
}

my $exhausted_bob = qr/privacy budget of role "bob" is exhausted/;
my $no_budget_carol = qr/role "carol" has no privacy budget/;

# ---------------------------------------------------------------------------
# A role without a budget cannot release anything.
check_refused('carol', '42501', $no_budget_carol, 'no budget');
is($node->safe_psql('postgres',
		"SELECT count(*) FROM pgdp.budgets WHERE role = 'carol'::regrole"),
	'0', 'no budget: the refusal does not create a budget row for carol');

# ---------------------------------------------------------------------------
# Test 1: a charge survives ROLLBACK.
{
	my $out = $node->safe_psql(
		'postgres', qq{
SELECT pg_backend_pid();
BEGIN;
$release_sql
SELECT count(*) FROM pgdp.my_ledger;
ROLLBACK;
},
		extra_params => [ '-U', 'alice' ]);
	my ($pid, $released, $seen_in_tx) = split /\n/, $out, -1;
	like($released // '', $release_re, 'rollback: alice receives the release inside BEGIN');
	is($seen_in_tx, '1',
		'rollback: the charge is already committed (visible in pgdp.my_ledger) before ROLLBACK');

	is($node->safe_psql('postgres',
			"SELECT count(*) FROM pgdp.ledger WHERE role = 'alice'::regrole"),
		'1', 'rollback: pgdp.ledger keeps 1 row for alice after ROLLBACK');
	is( $node->safe_psql(
			'postgres',
			"SELECT aggregate, mechanism, accounting, epsilon = 0.1, delta = 0, backend_pid = $pid, "
			  . "query_text LIKE '%dp_count(0.1) FROM t%' "
			  . "FROM pgdp.ledger WHERE role = 'alice'::regrole"),
		'dp_count|laplace|basic|t|t|t|t',
		'rollback: the ledger row records dp_count, laplace, epsilon 0.1, delta 0, alice\'s backend and query');
	epsilon_spent_is('alice', '0.1', 'rollback: alice\'s epsilon_spent is 0.1 after ROLLBACK');
	is( $node->safe_psql(
			'postgres',
			"SELECT delta_spent = 0, releases FROM pgdp.budgets WHERE role = 'alice'::regrole"),
		't|1', 'rollback: alice\'s delta_spent is 0 and releases is 1');
}

# ---------------------------------------------------------------------------
# Test 2: SIGKILL of the analyst's backend right after it received a release.
{
	my $session = $node->background_psql(
		'postgres',
		on_error_stop => 0,
		extra_params => [ '-U', 'alice' ]);
	my $pid = $session->query_safe('SELECT pg_backend_pid()');
	like($pid, qr/^\d+$/, 'sigkill: alice\'s backend pid is known');

	my $released = $session->query_safe($release_sql);
	like($released, $release_re, 'sigkill: alice receives the release');

	my $kill_offset = -s $node->logfile;
	ok(kill('KILL', $pid), "sigkill: SIGKILL sent to alice's backend $pid");

	# The postmaster treats it as a crash: every process is terminated, shared memory is
	# reinitialized and crash recovery replays the WAL. (wait_for_log dies after the default
	# timeout; show the server log then, since nothing after this can work without a server.)
	# One pattern from the kill on: wait_for_log returns the end of the log, not of the match, so
	# chaining calls could skip a line already written.
	my $recovered = eval {
		# (PostgreSQL 18 names the process's type: "client backend (PID ...)".)
		my $killed = qr/(?:server process|client backend) \(PID $pid\) was terminated by signal 9/;
		my $reinit = qr/all server processes terminated; reinitializing/;
		my $ready = qr/database system is ready to accept connections/;
		$node->wait_for_log(qr/$killed.*$reinit.*$ready/s, $kill_offset);
		1;
	};
	if (!ok($recovered, 'sigkill: the postmaster went through crash recovery'))
	{
		diag("$@\nserver log since the kill:\n"
			  . PostgreSQL::Test::Utils::slurp_file($node->logfile, $kill_offset));
		BAIL_OUT("no crash recovery after SIGKILL of backend $pid");
	}
	eval { $session->quit; };
	wait_ledger_ready('after SIGKILL');

	is($node->safe_psql('postgres',
			"SELECT count(*) FROM pgdp.ledger WHERE role = 'alice'::regrole"),
		'2', 'sigkill: pgdp.ledger has 2 rows for alice after crash recovery');
	is( $node->safe_psql(
			'postgres',
			"SELECT count(*) FROM pgdp.ledger WHERE role = 'alice'::regrole AND backend_pid = $pid "
			  . "AND aggregate = 'dp_count' AND epsilon = 0.1"),
		'1', 'sigkill: the killed backend\'s release is in the ledger');
	epsilon_spent_is('alice', '0.2', 'sigkill: alice\'s epsilon_spent is 0.2 after crash recovery');
	is($node->safe_psql('postgres',
			"SELECT releases FROM pgdp.budgets WHERE role = 'alice'::regrole"),
		'2', 'sigkill: alice\'s releases is 2 after crash recovery');

	# alice sees both her releases (the rolled-back one and the killed one) in her own views.
	is( $node->safe_psql(
			'postgres',
			"SELECT count(*), sum(epsilon) = 0.2, bool_and(aggregate = 'dp_count') FROM pgdp.my_ledger",
			extra_params => [ '-U', 'alice' ]),
		'2|t|t',
		'sigkill: pgdp.my_ledger shows alice both releases (under ROLLBACK and in the killed session)');
	is( $node->safe_psql(
			'postgres',
			"SELECT role, epsilon_spent = 0.2, epsilon_remaining = 0.6, releases FROM pgdp.my_budget",
			extra_params => [ '-U', 'alice' ]),
		'alice|t|t|2', 'sigkill: pgdp.my_budget shows alice 0.2 spent, 0.6 remaining');

	# The ledger worker is back: a new release is charged as before.
	my ($ret, $stdout, $stderr) = psql_as('alice', $release_sql);
	is($ret, 0, 'sigkill: alice can release again after crash recovery');
	like($stdout, $release_re, 'sigkill: the release after crash recovery is returned');
	is( $node->safe_psql(
			'postgres',
			"SELECT (SELECT count(*) FROM pgdp.ledger WHERE role = 'alice'::regrole), releases "
			  . "FROM pgdp.budgets WHERE role = 'alice'::regrole"),
		'3|3', 'sigkill: the release after crash recovery is charged (3 ledger rows, releases 3)');
	epsilon_spent_is('alice', '0.3', 'sigkill: alice\'s epsilon_spent is 0.3 after the new release');
}

# ---------------------------------------------------------------------------
# Test 3: 8 concurrent sessions, 5 attempts each (40 attempts), against a budget of exactly
# $fit releases of dp_count(0.1): exactly $fit are released, the other 40 - $fit are refused
# as exhausted, and the ledger holds exactly $fit charges adding up to the limit. Run for bob
# (0.8: 8 fit, the issue's case) and dave (0.5: 5 fit, so the 8 first attempts, which start
# together, cannot all pass: a check-then-charge race shows up as more than 5 releases).
sub race
{
	my ($role, $fit, $limit) = @_;
	my $sessions = 8;
	my $attempts = 5;
	my $gate = 4242;    # advisory lock key: all sessions start their releases together
	my $exhausted = qr/privacy budget of role "$role" is exhausted/;
	my $what = "concurrency ($role, $fit fit)";

	my $dir = PostgreSQL::Test::Utils::tempdir("race_$role");
	my $script = "$dir/$role.sql";
	PostgreSQL::Test::Utils::append_to_file($script,
		    "\\set VERBOSITY verbose\n"
		  . "SELECT pg_advisory_lock_shared($gate);\n"
		  . "$release_sql\n" x $attempts);

	# The superuser holds the gate while the sessions connect and queue behind it.
	my $admin = $node->background_psql('postgres');
	$admin->query_safe("SELECT pg_advisory_lock($gate)");

	my (@harness, @stdout, @stderr);
	for my $i (0 .. $sessions - 1)
	{
		$stdout[$i] = '';
		$stderr[$i] = '';
		$harness[$i] = IPC::Run::start(
			[
				$node->installed_command('psql'), '-XAtq',
				'-v', 'ON_ERROR_STOP=0',
				'-d', $node->connstr('postgres') . " user=$role",
				'-f', $script
			],
			'<', '/dev/null',
			'>', \$stdout[$i],
			'2>', \$stderr[$i],
			IPC::Run::timeout($timeout));
	}

	ok( $node->poll_query_until(
			'postgres',
			"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = $gate AND NOT granted",
			"$sessions"),
		"$what: all $sessions sessions of $role are connected and waiting at the gate");
	$admin->query_safe("SELECT pg_advisory_unlock($gate)");

	my ($successes, $refusals, $other_errors, $finished) = (0, 0, 0, 0);
	for my $i (0 .. $sessions - 1)
	{
		my $ok = eval { $harness[$i]->finish; };
		if (!defined $ok)
		{
			diag("$what: session $i did not finish: $@");
			$harness[$i]->kill_kill;
		}
		elsif ($ok)
		{
			$finished++;
		}
		else
		{
			diag("$what: session $i: psql exited with " . $harness[$i]->result(0));
		}
		my $s = () = $stdout[$i] =~ /^-?\d+$/mg;
		my $r = () = $stderr[$i] =~ /ERROR:\s+53400: $exhausted/g;
		my $e = () = $stderr[$i] =~ /ERROR:/g;
		note("$what: session $i: $s released, $r refused\nstdout:\n$stdout[$i]\nstderr:\n$stderr[$i]");
		is($s + $r, $attempts,
			"$what: session $i got an answer (release or refusal) to each of its $attempts attempts");
		$successes += $s;
		$refusals += $r;
		$other_errors += $e - $r;
	}
	$admin->quit;

	my $total = $sessions * $attempts;
	my $refused = $total - $fit;
	is($finished, $sessions, "$what: all $sessions psql sessions exited normally");
	is($successes, $fit, "$what: exactly $fit of the $total attempts were released");
	is($refusals, $refused,
		"$what: exactly $refused of the $total attempts were refused as exhausted (53400)");
	is($other_errors, 0, "$what: no attempt failed with any other error");

	is( $node->safe_psql(
			'postgres',
			"SELECT count(*), count(DISTINCT charge_id), sum(epsilon) = $limit, sum(delta) = 0 "
			  . "FROM pgdp.ledger WHERE role = '$role'::regrole"),
		"$fit|$fit|t|t",
		"$what: exactly $fit ledger rows ($fit charges) for $role, summing to epsilon $limit");
	# The compact ledger (0.4): one pgdp.charges row per charge, holding its one release.
	is( $node->safe_psql(
			'postgres',
			"SELECT count(*), sum(cardinality(epsilons)) FROM pgdp.charges WHERE role = '$role'::regrole"),
		"$fit|$fit",
		"$what: pgdp.charges holds one row per charge for $role ($fit rows, $fit releases)");
	epsilon_spent_is($role, $limit, "$what: ${role}'s epsilon_spent is exactly $limit");
	is( $node->safe_psql(
			'postgres',
			"SELECT epsilon_spent <= epsilon_limit, delta_spent = 0, releases "
			  . "FROM pgdp.budgets WHERE role = '$role'::regrole"),
		"t|t|$fit", "$what: $role is within the limit, delta_spent 0, releases $fit");
	check_refused($role, '53400', $exhausted, "$what: after the race");
	return;
}

race('bob', 8, '0.8');
race('dave', 5, '0.5');

# ---------------------------------------------------------------------------
# Test 4: restarts lose nothing.
{
	my $count = ledger_count();
	my $ledger = ledger_rows();
	my $budgets = budget_rows();
	is($count, '16', 'restart: 16 ledger rows before (3 for alice, 8 for bob, 5 for dave, none for refusals)')
	  or diag('ledger before restart:' . "\n" . $ledger);

	$node->restart;
	wait_ledger_ready('after fast restart');
	is(ledger_count(), $count, 'fast restart: pgdp.ledger has as many rows as before');
	is(ledger_rows(), $ledger, 'fast restart: pgdp.ledger rows are unchanged');
	is(budget_rows(), $budgets, 'fast restart: pgdp.budgets rows are unchanged');
	check_refused('bob', '53400', $exhausted_bob, 'fast restart');
	check_refused('dave', '53400', qr/privacy budget of role "dave" is exhausted/, 'fast restart');
	check_refused('carol', '42501', $no_budget_carol, 'fast restart');

	$node->stop('immediate');
	$node->start;
	wait_ledger_ready('after immediate stop');
	is(ledger_count(), $count, 'immediate stop: pgdp.ledger has as many rows as before');
	is(ledger_rows(), $ledger, 'immediate stop: pgdp.ledger rows are unchanged');
	is(budget_rows(), $budgets, 'immediate stop: pgdp.budgets rows are unchanged');
	check_refused('bob', '53400', $exhausted_bob, 'immediate stop');
	check_refused('dave', '53400', qr/privacy budget of role "dave" is exhausted/, 'immediate stop');
	check_refused('carol', '42501', $no_budget_carol, 'immediate stop');

	# A charge made just before an immediate shutdown (no checkpoint) is recovered from the WAL.
	my ($ret, $stdout, $stderr) = psql_as('alice', $release_sql);
	is($ret, 0, 'immediate stop: alice can release after restart');
	like($stdout, $release_re, 'immediate stop: alice receives the release');
	is(ledger_count(), $count + 1, 'immediate stop: the new release adds one ledger row');
	$ledger = ledger_rows();
	$budgets = budget_rows();
	$node->stop('immediate');
	$node->start;
	wait_ledger_ready('after a second immediate stop');
	is(ledger_count(), $count + 1,
		'immediate stop: the charge made just before the stop is still counted');
	is(ledger_rows(), $ledger, 'immediate stop: pgdp.ledger rows are unchanged after the second stop');
	is(budget_rows(), $budgets, 'immediate stop: pgdp.budgets rows are unchanged after the second stop');
	is($node->safe_psql('postgres',
			"SELECT releases FROM pgdp.budgets WHERE role = 'alice'::regrole"),
		'4', 'immediate stop: alice has made 4 releases');
	epsilon_spent_is('alice', '0.4', 'immediate stop: alice\'s epsilon_spent is 0.4');
}

$node->stop;
done_testing();
