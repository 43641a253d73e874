# pgdp beside the modules DBAs preload with it: pg_stat_statements, auto_explain and pgaudit, with
# pgdp loaded first and loaded last (docs/privacy.md "Sessions that cannot be charged"). In each
# order:
#   - an analyst with DP-only access (a protected table, each row its own unit) makes releases,
#     exact at epsilon 1e6 and charged once each;
#   - pg_stat_statements keeps the statements of a role pgdp cannot charge, none of the analyst's
#     (query ids cleared in sessions that can be charged) and none of the ledger worker's
#     bookkeeping (five statements per charge, whose counters every role could read);
#   - auto_explain (with ANALYZE: exact row counts) and pgaudit write to the server log; nothing of
#     it reaches the analyst, even at client_min_messages = log;
#   - a role without a budget runs another role's SECURITY DEFINER maintenance function.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $pgaudit = -e (`pg_config --pkglibdir` =~ s/\s+$//r) . '/pgaudit.so';
my @orders = ('pgdp,pg_stat_statements,auto_explain' . ($pgaudit ? ',pgaudit' : ''),
	($pgaudit ? 'pgaudit,' : '') . 'auto_explain,pg_stat_statements,pgdp');
diag('pgaudit is not installed (postgresql-15-pgaudit): orders without it') unless $pgaudit;

my $n = 0;
foreach my $order (@orders)
{
	$n++;
	my $node = PostgreSQL::Test::Cluster->new("coexistence_$n");
	$node->init;
	$node->append_conf(
		'postgresql.conf', qq{
shared_preload_libraries = '$order'
auto_explain.log_min_duration = 0
auto_explain.log_analyze = on
auto_explain.log_nested_statements = on
pgaudit.log = 'read, write, function'
pg_stat_statements.track = all
});
	$node->start;
	$node->safe_psql(
		'postgres', qq{
CREATE EXTENSION pgdp;
CREATE EXTENSION pg_stat_statements;
@{[ $pgaudit ? 'CREATE EXTENSION pgaudit;' : '' ]}
CREATE TABLE visits AS SELECT g AS id, g % 4 AS region, g % 100 AS minutes FROM generate_series(1, 4000) g;
CREATE ROLE analyst LOGIN;
CREATE ROLE clerk LOGIN;
CREATE ROLE owner;
GRANT SELECT ON visits TO clerk;
-- The analyst reads visits only through releases (DP-only access): its statements are sealed.
SELECT FROM pgdp.protect('visits', 'id');
SELECT FROM pgdp.grant_access('visits', 'analyst');
SELECT FROM pgdp.set_budget('analyst', 1e8, 0.5);
CREATE SCHEMA owner AUTHORIZATION owner;
GRANT USAGE ON SCHEMA owner TO PUBLIC;
SET ROLE owner;
CREATE TABLE owner.items (id int);
CREATE FUNCTION owner.maintain() RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS
  \$\$ BEGIN CREATE INDEX IF NOT EXISTS items_id ON owner.items (id); ANALYZE owner.items; RETURN 'ok'; END \$\$;
GRANT EXECUTE ON FUNCTION owner.maintain() TO PUBLIC;
RESET ROLE;
SELECT pg_stat_statements_reset();
});
	ok($node->poll_query_until('postgres', 'SELECT pgdp.ledger_ready()', 't'), "$order: ledger ready");

	my ($rc, $out, $err) = $node->psql(
		'postgres', q{
SET client_min_messages = log;
SELECT dp_count(1000000) BETWEEN 3990 AND 4010 AS count_exact FROM visits;
SELECT string_agg(region || ':' || round(s), ',' ORDER BY region)
FROM (SELECT region, dp_sum(minutes, 0, 100, 1000000) AS s FROM visits GROUP BY region
      HAVING dp_groups(1000000, 1e-9)) r;
SELECT abs((dp_mean_ci(minutes, 0, 100, 1000000, 0.05)).value - 49.5) < 0.01 AS mean_exact FROM visits;
}, extra_params => [ '-U', 'analyst' ]);
	is($rc, 0, "$order: the analyst's releases run");
	my $sums = $node->safe_psql('postgres',
		"SELECT string_agg(region || ':' || s, ',' ORDER BY region) FROM (SELECT region, sum(minutes) AS s FROM visits GROUP BY region) r");
	is($out, "t\n$sums\nt", "$order: exact at epsilon 1e6 (noise far below 0.5 per release)");
	# Only log_statement's echo of the analyst's own statement text (logged before planning).
	my @messages = grep { $_ !~ /LOG:  statement: |^(FROM|      HAVING|SELECT)/ } split /\n/, $err;
	is(join("\n", @messages), '',
		"$order: no plan, row count or audit line reaches the analyst (auto_explain, pgaudit: server log only)");
	is($node->safe_psql('postgres', "SELECT count(*) FROM pgdp.ledger WHERE role = 'analyst'::regrole"),
		'4', "$order: four releases (the group selection is one), four charges in the ledger");

	is($node->safe_psql('postgres', "SELECT maintain FROM owner.maintain()", extra_params => [ '-U', 'clerk' ]),
		'ok', "$order: a role without a budget runs another role's maintenance function");
	$node->safe_psql('postgres', 'SELECT count(*) FROM visits WHERE region = 2', extra_params => [ '-U', 'clerk' ]);

	my $stats = $node->safe_psql(
		'postgres', q{
SELECT
  count(*) FILTER (WHERE userid = 'clerk'::regrole AND query LIKE '%FROM visits WHERE region%'),
  count(*) FILTER (WHERE userid = 'analyst'::regrole AND query ~ 'dp_'),
  count(*) FILTER (WHERE query ~* 'pgdp\.(budgets|charges)|nextval')
FROM pg_stat_statements});
	is($stats, '1|0|0',
		"$order: pg_stat_statements keeps the clerk's statement, none of the analyst's releases, none of the ledger worker's");

	my $log = slurp_file($node->logfile);
	like($log, qr/duration: .*plan:/s, "$order: auto_explain logs plans");
	like($log, qr/AUDIT: SESSION/, "$order: pgaudit logs the session") if $pgaudit;
	$node->stop;
}

done_testing();
