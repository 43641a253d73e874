
# Server messages of protected statements under the admin's logging configuration (issue 20;
# docs/privacy.md "Server messages and statistics"). What pg_regress cannot show: the server's
# own configuration (auto_explain preloaded at the notice level, log_executor_stats) and both
# orders of pgdp and pg_stat_statements in shared_preload_libraries.
#
# For each order, an analyst with DP-only access and a budget asks for every message she can
# (client_min_messages = debug5, debug_print_plan, trace_sort) and makes releases: the client gets
# the rows and, of the release's command, only what the server sent before planning it (the
# transaction start, the statement's own text); no LOG, DEBUG, INFO, NOTICE or WARNING line from
# planning or execution (plans, sort traces, executor statistics, auto_explain). A control statement over
# her own table in the same session gets auto_explain's plan and the statistics, so the
# configuration does produce them. pg_stat_statements has no entry of hers (she could make releases
# over rows she may not read), and one of bob's (no budget, no access).
# track_planning is on in both orders: the query id of every statement of a session that could
# make such releases is cleared when it is parsed, before any planner hook runs.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

sub run_order {
	my ($libraries) = @_;
	my $node = PostgreSQL::Test::Cluster->new("messages_" . ($libraries =~ s/\W/_/gr));
	$node->init;
	$node->append_conf(
		'postgresql.conf', qq{
shared_preload_libraries = '$libraries'
auto_explain.log_min_duration = 0
auto_explain.log_analyze = on
auto_explain.log_level = notice
auto_explain.log_nested_statements = on
log_executor_stats = on
log_planner_stats = on
max_worker_processes = 16
pg_stat_statements.track = all
});
	$node->start;
	$node->safe_psql(
		'postgres', q{
SET client_min_messages = warning;
CREATE EXTENSION pgdp;
CREATE EXTENSION pg_stat_statements;
CREATE ROLE alice LOGIN;
CREATE ROLE bob LOGIN;
SELECT role FROM pgdp.set_budget('alice', 1e9, 0.5);
CREATE TABLE sales (customer int, amount int, diag text);
INSERT INTO sales SELECT g % 300, g % 100, CASE WHEN g % 300 = 77 THEN 'hiv' ELSE 'flu' END
FROM generate_series(1, 3000) g;
SELECT relation FROM pgdp.protect('sales', 'customer', 2);
SELECT relation FROM pgdp.grant_access('sales', 'alice');
CREATE SCHEMA alice AUTHORIZATION alice;
ANALYZE sales;
});
	$node->safe_psql('postgres', q{
CREATE TABLE alice.own (k int);
INSERT INTO alice.own SELECT generate_series(1, 40);
GRANT USAGE ON SCHEMA alice TO bob;
GRANT SELECT ON alice.own TO bob;
}, extra_params => [ '-U', 'alice' ]);

	my $settings = q{
SET client_min_messages = debug5;
SET debug_print_plan = on;
SET trace_sort = on;
SET work_mem = '64kB';
SET enable_hashagg = off;
};
	my $track_planning = 'on';
	$node->safe_psql('postgres', "ALTER SYSTEM SET pg_stat_statements.track_planning = $track_planning; SELECT pg_reload_conf();");
	$node->safe_psql('postgres', 'SELECT pg_stat_statements_reset()');

	# The last with parallel plans preferred: workers' messages reach the client through the leader.
	my $parallel = "SET parallel_setup_cost = 0;\nSET parallel_tuple_cost = 0;\nSET min_parallel_table_scan_size = 0;\n";
	my @releases = (
		q{SELECT dp_count(1e6) > 0 AS marker_release FROM sales WHERE diag = 'hiv'},
		q{SELECT dp_sum(amount, 0, 100, 1e6) > 0 AS marker_release FROM sales s JOIN alice.own o ON o.k < 30},
		q{SELECT diag, dp_count(1e6) > 0 AS marker_release FROM sales GROUP BY diag HAVING dp_groups(1e6, 1e-9)},
		"${parallel}SELECT dp_count(1e6) > 0 AS marker_release FROM sales s JOIN alice.own o ON o.k < 30",
	);
	for my $release (@releases) {
		my $script = "$settings$release;";
		# psql names the script's line of each message: the release is on the last one.
		my $line = ($script =~ tr/\n//) + 1;
		my ($rc, $out, $err) = $node->psql('postgres', $script, extra_params => [ '-U', 'alice' ]);
		is($rc, 0, "$libraries: release runs: $release");
		like($out, qr/(^|\|)t$/m, "$libraries: release returned its row");
		# Messages of the release's own line: only those sent before it is planned (the
		# transaction start at debug5, the statement's text under the harness's log_statement).
		my @after = grep { !/^psql:<stdin>:$line: (DEBUG:  StartTransaction|LOG:  statement: )/ }
		  grep { /^psql:<stdin>:$line: / } split /\n/, $err;
		is(join("\n", @after), '', "$libraries: no message of any level from planning or execution: $release");
	}

	# Control: the same settings and configuration on a statement over her own table.
	my ($rc, $out, $err) = $node->psql('postgres', "$settings SELECT count(*) AS marker_control FROM alice.own;",
		extra_params => [ '-U', 'alice' ]);
	is($rc, 0, "$libraries: control runs");
	like($err, qr/NOTICE:  duration: .* plan:/, "$libraries: control: auto_explain's plan reaches the client");
	like($err, qr/LOG:  EXECUTOR STATISTICS/, "$libraries: control: log_executor_stats reaches the client");
	like($err, qr/LOG:  plan:/, "$libraries: control: debug_print_plan reaches the client");
	like($err, qr/LOG:  PLANNER STATISTICS/, "$libraries: control: log_planner_stats reaches the client");

	# A role without budget or access keeps its counters; alice, who could release over rows she may
	# not read, keeps none, also of her statement over her own table.
	$node->safe_psql('postgres', 'SELECT count(*) AS marker_plain FROM alice.own', extra_params => [ '-U', 'bob' ]);
	my $entries = $node->safe_psql('postgres', q{
SELECT count(*) FILTER (WHERE query LIKE '%marker_release%') || ',' ||
       count(*) FILTER (WHERE query LIKE '%marker_control%') || ',' ||
       count(*) FILTER (WHERE query LIKE '%marker_plain%')
FROM pg_stat_statements WHERE calls > 0 OR plans > 0});
	is($entries, '0,0,1',
		"$libraries: pg_stat_statements counted bob's statement, none of alice's (track_planning $track_planning)");
	my $charges = $node->safe_psql('postgres', q{SELECT count(*) FROM pgdp.charges WHERE role = 'alice'::regrole});
	is($charges, scalar(@releases), "$libraries: each release charged once");
	$node->stop;
}

run_order('pgdp,pg_stat_statements,auto_explain');
run_order('pg_stat_statements,auto_explain,pgdp');

done_testing();
