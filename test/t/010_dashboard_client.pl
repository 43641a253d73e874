# Issue 13: a real dashboard client on pgdp's release cache. The dashboard backend of
# demo/dashboard (node-postgres: a pg.Pool, named prepared statements with bind parameters, the
# extended protocol) runs against a fresh cluster with the demo's staff table
# (demo/dashboard/setup.sql, policy 'manual'), and the ledger (pgdp.ledger, one row per release)
# is counted by the superuser around each step:
#   1. 100 refreshes of the 5 panels charge exactly 5 releases (one per panel: each panel query
#      has one *_ci aggregate) and every refresh returns identical rows; the first refresh is
#      released (from_cache false), the 99 others come from the cache (from_cache true);
#   2. pgdp.refresh('staff') starts a new epoch: 100 refreshes charge 5 again, new answers;
#   3. a changed bind parameter value (another region) is a new release, charged once; the old
#      value is still answered from the cache; a changed query text is a new release too;
#   4. a role outside the dashboard's cache group gets (and pays for) its own releases; a role in
#      the same cache group (pgdp.set_cache_group) gets the dashboard's stored rows, free;
#   5. the cache survives a restart: refreshes after $node->restart charge nothing and return the
#      same rows;
#   6. concurrent identical first requests: after pgdp.refresh, 8 identical requests of one panel
#      over 8 open connections, all in flight together, make exactly 1 charge, all get the same
#      rows, 7 of them from the cache; 8 identical requests of each of the 5 panels at once make
#      exactly 5 charges, likewise.
# Skipped (scripts/test.sh counts it as skipped) when node or node-postgres is not available:
# scripts/test.sh installs it (scripts/node.sh, ensure_node_pg) and exports PGDP_NODE_PG.
# About 20 s.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use JSON::PP;

my $srcdir = $ENV{PGDP_SRCDIR} // '../..';
my $run_js = "$srcdir/demo/dashboard/run.js";
my $node_path = $ENV{NODE_PATH} || "$srcdir/build/node/node_modules";

if (defined $ENV{PGDP_NODE_PG} && $ENV{PGDP_NODE_PG} eq '0')
{
	plan skip_all => 'node-postgres not available: ' . ($ENV{PGDP_NODE_PG_REASON} // 'unknown reason');
}
{
	my ($out, $err) = ('', '');
	local $ENV{NODE_PATH} = $node_path;
	my $ok = eval { IPC::Run::run([ 'node', '-e', 'require("pg")' ], '<', \'', '>', \$out, '2>', \$err); };
	plan skip_all => "node or node-postgres (NODE_PATH=$node_path) not available: "
	  . ($@ ? $@ : ($err =~ /^(Error: .*)$/m)[0] // 'require failed')
	  unless $ok;
}

my $timeout = $PostgreSQL::Test::Utils::timeout_default;

my $node = PostgreSQL::Test::Cluster->new('dashboard_client');
$node->init;
$node->append_conf(
	'postgresql.conf', qq{
shared_preload_libraries = 'pgdp'
max_worker_processes = 16
max_connections = 40
fsync = on
});
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION pgdp');
$node->safe_psql('postgres', PostgreSQL::Test::Utils::slurp_file("$srcdir/demo/dashboard/setup.sql"));
# Budgets large enough that no step below is refused for want of budget: the counts are the test.
$node->safe_psql(
	'postgres', q{
CREATE ROLE dash_peer LOGIN;
CREATE ROLE outsider LOGIN;
GRANT SELECT ON staff TO dash_peer, outsider;
SELECT FROM pgdp.set_budget('dashboard', 1000, 0.01);
SELECT FROM pgdp.set_budget('dash_peer', 1000, 0.01);
SELECT FROM pgdp.set_budget('outsider', 1000, 0.01);
SELECT FROM pgdp.set_cache_group('dashboard', 'board');
SELECT FROM pgdp.set_cache_group('dash_peer', 'board');
});
ok($node->poll_query_until('postgres', 'SELECT pgdp.ledger_ready()', 't'), 'ledger ready');

# Releases charged to a role so far (the superuser's view of the ledger: one row per release).
sub charged
{
	my ($role) = @_;
	return $node->safe_psql('postgres',
		"SELECT count(*) FROM pgdp.ledger WHERE role = '$role'::regrole");
}

# Runs demo/dashboard/run.js --json as a role with the given options; returns its summary.
sub dashboard
{
	my ($role, @options) = @_;
	my ($out, $err) = ('', '');
	my @cmd = ('node', $run_js, '--json', @options);
	local %ENV = %ENV;
	delete $ENV{$_} for qw(PGSERVICE PGPASSWORD PGHOSTADDR PGOPTIONS PGAPPNAME);
	@ENV{qw(NODE_PATH PGHOST PGPORT PGUSER PGDATABASE)} =
	  ($node_path, $node->host, $node->port, $role, 'postgres');
	my $ok = IPC::Run::run(\@cmd, '<', \'', '>', \$out, '2>', \$err, IPC::Run::timeout($timeout));
	note("run.js as $role @options: $err") if $err ne '';
	return undef unless $ok;
	return decode_json($out);
}

# A panel's rows without from_cache, canonical: what must be equal between answers of one epoch.
my $json = JSON::PP->new->canonical;
sub answer_of
{
	my ($summary, $panel) = @_;
	return undef unless $summary;
	my ($p) = grep { $_->{name} eq $panel } @{ $summary->{panels} };
	return undef unless $p;
	return $json->encode([ map { my %r = %$_; delete $r{from_cache}; \%r } @{ $p->{rows} } ]);
}
sub answers
{
	my ($summary) = @_;
	return undef unless $summary;
	return join("\n", map { "$_->{name}: " . answer_of($summary, $_->{name}) } @{ $summary->{panels} });
}
sub panel_field
{
	my ($summary, $field) = @_;
	return join(',', map { "$_->{name}=" . ($_->{$field} // 'undef') } @{ $summary->{panels} });
}
my @panel_names = qw(headcount_by_region mean_salary_by_region total_payroll region_headcount_by_age
  mean_bonus_by_age);

# ---------------------------------------------------------------------------
# 1. One epoch: 100 refreshes, 5 charges, identical answers.
my $before = charged('dashboard');
my $epoch1 = dashboard('dashboard', '--refreshes', 100);
ok($epoch1, '100 refreshes of the dashboard run');
is($epoch1->{releases_per_epoch}, 5, 'the dashboard has 5 panels of one release each');
is(charged('dashboard') - $before, 5, '100 refreshes of 5 panels: exactly 5 releases charged (pgdp.ledger)');
is($epoch1->{charges}, 5, '... and pgdp.my_ledger as the dashboard sees it says the same');
ok($epoch1->{all_stable}, 'every refresh returned identical rows for every panel');
is(panel_field($epoch1, 'first_from_cache'), join(',', map { "$_=0" } @panel_names),
	'the first refresh is released (from_cache false in every row)');
is(panel_field($epoch1, 'refreshes_from_cache'), join(',', map { "$_=99" } @panel_names),
	'the 99 later refreshes come from the cache (from_cache true in every row)');
my @release_fields = sort keys %{ $epoch1->{panels}[0]{rows}[0] // {} };
is( join(',', @release_fields),
	'alpha,ci_lower,ci_upper,delta,epsilon,from_cache,label,lower_bound,max_groups_contributed,mechanism,noise_sd,'
		. 'rows_per_unit,upper_bound,value',
	'a panel row carries the release report: value, interval, noise_sd, mechanism, epsilon, delta, from_cache, bounds used, '
		. 'contribution bounds');

my $again = dashboard('dashboard', '--refreshes', 10);
is($again->{charges}, 0, 'a later run of 10 refreshes (new connections) charges nothing');
is(answers($again), answers($epoch1), '... and returns the same rows');

# ---------------------------------------------------------------------------
# 2. A new epoch: charged again, once.
$node->safe_psql('postgres', "SELECT pgdp.refresh('staff')");
$before = charged('dashboard');
my $epoch2 = dashboard('dashboard', '--refreshes', 100);
is(charged('dashboard') - $before, 5, "after pgdp.refresh('staff'): 100 refreshes charge exactly 5 releases again");
ok($epoch2->{all_stable}, '... with identical rows on every refresh of the new epoch');
# Fresh noise in the new epoch: the sums and means are continuous, so equal rows in all 5 panels
# would mean the old answers were served (probability of a false failure: 0).
isnt(answers($epoch2), answers($epoch1), '... and new answers (new noise), not the old epoch\'s');

# ---------------------------------------------------------------------------
# 3. Changed parameter value, changed query text.
$before = charged('dashboard');
my $south = dashboard('dashboard', '--refreshes', 5, '--region', 'south', '--panels', 'region_headcount_by_age');
is(charged('dashboard') - $before, 1, 'a changed bind parameter value (region south): one new release, charged once over 5 refreshes');
ok($south && $south->{all_stable}, '... stable over its 5 refreshes');
isnt(answer_of($south, 'region_headcount_by_age'), answer_of($epoch2, 'region_headcount_by_age'),
	'... with its own answer');
$before = charged('dashboard');
my $island = dashboard('dashboard', '--refreshes', 2, '--panels', 'region_headcount_by_age');
is(charged('dashboard') - $before, 0, 'the former value (island) is still answered from the cache');
is(answer_of($island, 'region_headcount_by_age'), answer_of($epoch2, 'region_headcount_by_age'),
	'... with the stored rows');

my $changed_text = q{SELECT region AS label, dp_count_ci($1::float8, $2::float8, $3::text, $4::float8) AS release
FROM staff GROUP BY region ORDER BY region DESC};
$before = charged('dashboard');
my $text2 = dashboard('dashboard', '--refreshes', 5, '--query', $changed_text, '--values', '[0.5, 0.000001, "auto", 0.05]');
is(charged('dashboard') - $before, 1, 'a changed query text (ORDER BY region DESC), same values: one new release, charged once over 5 refreshes');
ok($text2 && $text2->{all_stable}, '... stable over its 5 refreshes');

# ---------------------------------------------------------------------------
# 4. Cache scope: the same cache group shares, another role pays for its own.
my ($peer_before, $dash_before) = (charged('dash_peer'), charged('dashboard'));
my $peer = dashboard('dash_peer', '--refreshes', 10);
is(charged('dash_peer') - $peer_before, 0, 'a role in the same cache group (board): 10 refreshes charge it nothing');
is(charged('dashboard') - $dash_before, 0, '... and charge the dashboard role nothing either');
is(answers($peer), answers($epoch2), '... and it gets the stored rows of the group');
is(panel_field($peer, 'first_from_cache'), join(',', map { "$_=1" } @panel_names),
	'... from the cache from its first refresh on');

my $out_before = charged('outsider');
$dash_before = charged('dashboard');
my $outsider = dashboard('outsider', '--refreshes', 10);
is(charged('outsider') - $out_before, 5, 'a role outside the cache group: its own 5 releases, charged to it');
is(charged('dashboard') - $dash_before, 0, '... and nothing to the dashboard role');
ok($outsider && $outsider->{all_stable}, '... stable over its 10 refreshes');
isnt(answers($outsider), answers($epoch2), '... with its own answers (own noise)');

# ---------------------------------------------------------------------------
# 5. The cache survives a restart.
$node->restart;
ok($node->poll_query_until('postgres', 'SELECT pgdp.ledger_ready()', 't'), 'ledger ready after the restart');
$before = charged('dashboard');
my $restarted = dashboard('dashboard', '--refreshes', 10);
is(charged('dashboard') - $before, 0, 'after a restart: 10 refreshes charge nothing');
is(answers($restarted), answers($epoch2), '... and return the rows stored before the restart');

# ---------------------------------------------------------------------------
# 6. Concurrent identical first requests. First one panel: 8 identical requests over 8 open
# connections, all in flight together (each sent before any answer came back, measured by the
# client), then the whole dashboard the same way.
$node->safe_psql('postgres', "SELECT pgdp.refresh('staff')");
$before = charged('dashboard') + charged('dash_peer');
my $one = dashboard('dashboard', '--refreshes', 1, '--copies', 8, '--pool-max', 8, '--panels', 'headcount_by_region');
my ($one_panel) = @{ $one->{panels} // [ {} ] };
ok($one_panel->{copies_overlapped}, 'after pgdp.refresh: 8 identical first requests of one panel were in flight together');
is(charged('dashboard') + charged('dash_peer') - $before, 1, '... and made exactly 1 charge');
ok($one->{all_stable}, '... and all 8 got the same rows');
is("$one_panel->{rows_from_cache}/$one_panel->{rows_total}", (7 * 5) . '/' . (8 * 5),
	'... 7 of them from the cache (they waited for the first and got its stored answer)');

$node->safe_psql('postgres', "SELECT pgdp.refresh('staff')");
$before = charged('dashboard') + charged('dash_peer');
my $burst = dashboard('dashboard', '--refreshes', 1, '--copies', 8, '--pool-max', 8);
is(charged('dashboard') + charged('dash_peer') - $before, 5,
	'after pgdp.refresh: 8 identical requests of each of the 5 panels at once (pool of 8): exactly 5 charges');
ok($burst && $burst->{all_stable}, '... and all 8 copies of each panel got the same rows');
is( join(',', map { $_->{rows_from_cache} * 8 == $_->{rows_total} * 7 ? 1 : 0 } @{ $burst->{panels} // [] }),
	'1,1,1,1,1', '... in each panel 7 of the 8 copies from the cache');
my $after_burst = dashboard('dashboard', '--refreshes', 3);
is($after_burst->{charges}, 0, '... and the next refreshes are answered from the cache');
is(answers($after_burst), answers($burst), '... with the burst\'s rows');

$node->stop;
done_testing();
