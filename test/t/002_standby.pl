# pgdp 0.3: a hot standby refuses releases (its ledger cannot be written), with SQLSTATE 25006,
# and charges nothing; the primary keeps charging, and its ledger reaches the standby by
# replication.
#
# Run by scripts/test.sh (as an unprivileged user, from a copy of test/t).

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "shared_preload_libraries = 'pgdp'\nmax_worker_processes = 16\n");
$primary->start;
$primary->safe_psql(
	'postgres', q{
CREATE EXTENSION pgdp;
CREATE TABLE t AS SELECT i FROM generate_series(1, 100) AS i;
CREATE ROLE alice LOGIN;
GRANT SELECT ON t TO alice;
SELECT pgdp.set_budget('alice', 1);
});
$primary->backup('backup');

my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
$standby->start;
$primary->wait_for_catchup($standby);

is($standby->safe_psql('postgres', 'SELECT pg_is_in_recovery(), pgdp.ledger_ready()'),
	't|f', 'the standby is in recovery and says releases cannot be charged there');

my ($ret, $stdout, $stderr) = $standby->psql(
	'postgres', 'SELECT dp_count(0.1) FROM t',
	extra_params => [ '-U', 'alice', '-v', 'VERBOSITY=verbose' ]);
isnt($ret, 0, 'a release on the standby fails');
is($stdout, '', 'nothing is released on the standby');
like($stderr, qr/25006/, 'with SQLSTATE 25006 (read_only_sql_transaction)');
like($stderr, qr/not possible on a hot standby/, 'and a message saying why');

# Plain EXPLAIN is still possible there: it neither charges nor releases.
like($standby->safe_psql('postgres', 'EXPLAIN (COSTS OFF) SELECT dp_count(0.1) FROM t'),
	qr/Aggregate/, 'plain EXPLAIN works on the standby');

# The primary charges; the standby sees the charge once replayed, and nothing else.
($ret, $stdout, $stderr) = $primary->psql('postgres', 'SELECT dp_count(0.1) FROM t',
	extra_params => [ '-U', 'alice' ]);
is($ret, 0, 'the primary releases');
like($stdout, qr/^-?\d+$/, 'one released count');
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', q{SELECT count(*), sum(epsilon) FROM pgdp.ledger WHERE role = 'alice'::regrole}),
	'1|0.1', 'the standby has exactly the primary\'s one charge');

$standby->stop;
$primary->stop;
done_testing();
