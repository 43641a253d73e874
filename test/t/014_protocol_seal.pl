
# The seal of the client connection (issue 20; docs/privacy.md "Server messages and statistics")
# against the extended protocol, parallel workers and COPY: red team round 14 found no break; its
# probes are kept here. alice (DP-only access, a budget) asks for every message she can
# (client_min_messages = debug5, trace_sort, debug_print_plan) and makes person-level releases:
# between the start of such a statement and ReadyForQuery outside a transaction block, no notice
# reaches her but the lines the server sends before planning (DEBUG parse, bind, StartTransaction,
# LOG statement: the statement's own text), whatever the protocol does in between; and the first command after
# it gets its notices again (the seal ends). A control shows that her own statements do produce
# plan dumps, sort traces and RAISE notices under these settings.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use ProtocolFrontend;

my $node = PostgreSQL::Test::Cluster->new('protocol_seal');
$node->init;
$node->append_conf(
	'postgresql.conf', q{
shared_preload_libraries = 'pgdp'
max_worker_processes = 16
max_parallel_workers = 4
});
$node->start;
$node->safe_psql(
	'postgres', q{
SET client_min_messages = warning;
CREATE EXTENSION pgdp;
CREATE ROLE alice LOGIN;
SELECT role FROM pgdp.set_budget('alice', 1e6, 1e-3);
CREATE TABLE sales (customer int, region int, amount int, note text);
INSERT INTO sales SELECT g % 300, g % 5, g % 100, 'n' || g FROM generate_series(1, 20000) g;
INSERT INTO sales VALUES (777, 1, 40, 'x'), (777, 1, 30, 'x'), (777, 1, 20, 'x');
ANALYZE sales;
SELECT relation FROM pgdp.protect('sales', 'customer', 2);
SELECT relation FROM pgdp.grant_access('sales', 'alice');
CREATE SCHEMA own AUTHORIZATION alice;
});
$node->safe_psql('postgres',
	q{CREATE FUNCTION own.noisy(x int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE 'noisy %', x; RETURN x; END $$;},
	extra_params => [ '-U', 'alice' ]);

# Notices of a sealed span other than the statement's own text sent before planning (at debug5,
# and the harness's log_statement = all).
sub leaked
{
	return grep { !/^(DEBUG: (parse |bind |StartTransaction)|LOG: (statement|execute [^:]*): )/ } notices(@_);
}

my $release = 'SELECT region, dp_count(0.5) FROM sales WHERE amount > 10 GROUP BY region HAVING dp_groups(1, 1e-5)';
my $alice = ProtocolFrontend->connect($node->host, $node->port, 'alice');
$alice->send(Q('SET client_min_messages = debug5; SET trace_sort = on; SET enable_hashagg = off; SET debug_print_plan = on'));
$alice->read_until('Z');

$alice->send(Q('SELECT own.noisy(g) FROM generate_series(1, 2) g ORDER BY 1'));
my @control = notices($alice->read_until('Z'));
ok((grep { /^LOG: plan:/ } @control) && (grep { /^LOG: .*sort/ } @control) && (grep { /^NOTICE: noisy 1/ } @control),
	'control: her own sort gives a plan dump, sort traces and her RAISE notices');

sub unsealed
{
	my ($after) = @_;
	$alice->send(Q("SELECT own.noisy($after)"));
	ok((grep { /^NOTICE: noisy $after$/ } notices($alice->read_until('Z'))), "the next command gets its notices ($after)");
	return;
}

# 1a: a release without Sync, Flush, a noisy statement, Flush, then Sync.
$alice->send(P('', $release), B('', ''), E('', 0), H());
my @a = $alice->read_until(undef, 2);
$alice->send(P('n', 'SELECT own.noisy(5)'), B('', 'n'), E('', 0), H());
push @a, $alice->read_until(undef, 2);
$alice->send(S());
push @a, $alice->read_until('Z');
is(join("\n", leaked(@a)), '', 'a release, Flush, a noisy statement before Sync: no notice');
unsealed(6);

# 1b: Describe, a pipeline of partial Executes (suspended), an error, skipped messages, Sync.
$alice->send(
	P('r', $release), D('S', 'r'), B('p', 'r'), D('P', 'p'),
	E('p', 2), E('p', 2), P('', 'SELECT 1/0'), B('', ''),
	E('', 0), P('', 'SELECT own.noisy(9)'), B('', ''), E('', 0),
	S());
my @b = $alice->read_until('Z');
my ($state) = outcome(@b);
is($state, '22012', 'the pipeline: the division by zero is reported');
is(join("\n", leaked(@b)), '', 'the pipeline with Describe, a suspended portal and an error: no notice');
unsealed(10);

# 1c: a suspended portal in a transaction block, closed by COMMIT.
$alice->send(Q('BEGIN'));
$alice->read_until('Z');
$alice->send(B('q', 'r'), E('q', 1), S());
my @c = $alice->read_until('Z');
$alice->send(Q('SELECT own.noisy(1)'));
push @c, $alice->read_until('Z');
$alice->send(Q('COMMIT'));
push @c, $alice->read_until('Z');
is(join("\n", leaked(@c)), '', 'a suspended portal in a block, ended by COMMIT: no notice until the block ends');
unsealed(11);

# 3: COPY (release) TO STDOUT, simple and extended.
$alice->send(Q("COPY ($release) TO STDOUT"));
my @d = $alice->read_until('Z');
$alice->send(P('', "COPY ($release) TO STDOUT"), B('', ''), E('', 0), S());
push @d, $alice->read_until('Z');
is(scalar(grep { $_->[0] eq 'd' } @d), 10, 'COPY of a release: its rows');
is(join("\n", leaked(@d)), '', 'COPY of a release: no notice between the rows');

# 2: parallel person-level releases (workers sort the protected rows).
$alice->send(Q('SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; '
	  . 'SET max_parallel_workers_per_gather = 2'));
$alice->read_until('Z');
$alice->send(Q($release));
my @e = $alice->read_until('Z');
$alice->send(Q('SELECT dp_count(0.5) FROM sales WHERE amount > 10'));
push @e, $alice->read_until('Z');
$alice->send(P('', $release), B('', ''), E('', 0), S());
push @e, $alice->read_until('Z');
is(join("\n", leaked(@e)), '', 'parallel person-level releases: no notice of the workers or the leader');
unsealed(12);

$alice->close;
$node->stop;
done_testing();
