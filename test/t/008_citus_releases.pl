
# pgdp releases on Citus distributed tables (issue 12), on a coordinator and two workers
# (t/CitusCluster.pm):
#   1. every query form (whole table, GROUP BY a non-distribution column and the distribution
#      column, one shard, joins with the reference, a local and a co-located table, the *_ci forms,
#      bind parameters under a generic plan) gives the exact clamped answer at epsilon 1e6, with
#      exactly one ledger row per release on the coordinator and none on any worker;
#   2. statistics: >= 500 releases per form at epsilon 1: coverage of the 95 % intervals (exact
#      binomial bound), the errors' spread against the reported noise_sd and their mean;
#   3. a budget that runs out part-way: each accepted query one charge, refused ones none;
#   4. hostile calls: pgdp.distributed_partials called directly (with the text of a real plan),
#      Citus's worker_partial_agg on pgdp aggregates, connections that claim to be Citus's own, a
#      role without SELECT on the table, other aggregates beside the releases, distributed tables
#      outside the releasing level: refused, nothing charged, nothing exact shown;
#   5. a worker queried directly is a node with its own ledger.
# Skipped (never passed) when Citus is not available: see CitusCluster::skip_unless_citus.

use strict;
use warnings;

use List::Util qw(sum);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use CitusCluster;

CitusCluster::skip_unless_citus();

my $rows = 20000;
my $cluster = CitusCluster->new;
$cluster->create_sample_data(rows => $rows);
my $expected = $cluster->expected_totals;
my $coordinator = $cluster->coordinator;

# The analyst: SELECT on the sample tables, a large budget on the coordinator only. A co-located
# second distributed table for joins on the distribution column.
$cluster->sql(
	'coordinator', q{
CREATE ROLE analyst LOGIN;
CREATE ROLE outsider LOGIN;
CREATE TABLE returns (id bigint, customer int, refunded int);
SELECT create_distributed_table('returns', 'customer', colocate_with := 'sales');
INSERT INTO returns SELECT id, customer, amount / 2 FROM sales WHERE id % 3 = 0;
GRANT SELECT ON sales, regions, targets, returns TO analyst;
GRANT SELECT ON targets TO outsider;
SELECT pgdp.set_budget('analyst', 1e12, 0.9);
SELECT pgdp.set_budget('outsider', 1e12, 0.9);
});

sub as_analyst
{
	my ($sql, $role) = @_;
	return $coordinator->safe_psql('postgres', $sql,
		extra_params => [ '-U', $role // 'analyst' ]);
}

sub try_as
{
	my ($role, $node_name, $sql) = @_;
	my ($stdout, $stderr);
	my $rc = $cluster->node($node_name)->psql(
		'postgres', $sql,
		stdout => \$stdout,
		stderr => \$stderr,
		extra_params => [ '-U', $role, '-v', 'VERBOSITY=verbose' ]);
	return ($rc, $stdout // '', $stderr // '');
}

# Ledger rows (one per release) on each node, as a string "coordinator/worker1/worker2".
sub releases
{
	my %n = $cluster->release_counts;
	return join '/', map { $n{$_} } @CitusCluster::NODE_NAMES;
}

# Runs $sql as the analyst and checks that it made exactly $count releases, all on the
# coordinator. Returns the query's output.
sub charged_once
{
	my ($sql, $count, $name) = @_;
	my %before = $cluster->release_counts;
	my $out = as_analyst($sql);
	my %after = $cluster->release_counts;
	is( sprintf('%d/%d/%d',
			map { $after{$_} - $before{$_} } @CitusCluster::NODE_NAMES),
		"$count/0/0",
		"$name: $count ledger rows on the coordinator, none on the workers");
	return $out;
}

sub refused_uncharged
{
	my ($role, $node_name, $sql, $sqlstate, $name) = @_;
	my $before = releases();
	my ($rc, $stdout, $stderr) = try_as($role, $node_name, $sql);
	isnt($rc, 0, "$name: refused");
	like($stderr, qr/$sqlstate/, "$name: SQLSTATE $sqlstate")
	  or diag($stderr);
	is(releases(), $before, "$name: nothing charged on any node");
	return $stderr;
}

# ---------------------------------------------------------------------------------------------
# 1. Every form, exact at epsilon 1e6.

sub per_region
{
	my ($format) = @_;
	return join "\n",
	  map { sprintf $format, $_, $expected->{region_amount}{$_}, $expected->{region_count}{$_} }
	  sort { $a <=> $b } keys %{ $expected->{region_count} };
}

is( charged_once(
		'SELECT dp_sum(amount, 0, 100, 1e6), dp_count(1e6), round(dp_mean(amount, 0, 100, 1e6)::numeric, 4) FROM sales',
		3, 'whole table'),
	sprintf('%d|%d|%.4f',
		$expected->{amount}, $rows, $expected->{amount} / $rows),
	'whole table: dp_sum, dp_count and dp_mean exact at epsilon 1e6');

is( charged_once(
		'SELECT region, dp_sum(amount, 0, 100, 1e6), dp_count(1e6) FROM sales GROUP BY region ORDER BY region',
		2, 'GROUP BY region'),
	per_region('%d|%d|%d'),
	'GROUP BY a non-distribution column: exact per group');

is( charged_once(
		'SELECT customer, dp_sum(amount, 0, 100, 1e6), dp_count(1e6) FROM sales GROUP BY customer ORDER BY customer',
		2, 'GROUP BY customer'),
	$cluster->sql('coordinator',
		'SELECT customer, sum(amount), count(*) FROM sales GROUP BY customer ORDER BY customer'),
	'GROUP BY the distribution column: exact per group (1000 groups)');

is( charged_once(
		'SELECT dp_sum(amount, 0, 100, 1e6), dp_count(1e6) FROM sales WHERE customer = 7',
		2, 'one shard'),
	$cluster->sql('coordinator',
		'SELECT sum(amount), count(*) FROM sales WHERE customer = 7'),
	'a single-shard query: exact');

is( charged_once(
		q{SELECT r.name, dp_count(1e6), dp_sum(s.amount, 0, 50, 1e6) FROM sales s JOIN regions r USING (region)
		  GROUP BY r.name ORDER BY r.name},
		2, 'join with the reference table'),
	$cluster->sql('coordinator',
		q{SELECT r.name, count(*), sum(least(s.amount, 50)) FROM sales s JOIN regions r USING (region)
		  GROUP BY r.name ORDER BY r.name}),
	'join with a reference table, grouped by its column: exact (values clamped to 50)');

is( charged_once(
		q{SELECT t.goal, dp_count(1e6) FROM sales s JOIN targets t USING (region) WHERE s.amount > 10
		  GROUP BY t.goal ORDER BY t.goal},
		1, 'join with a local table'),
	$cluster->sql('coordinator',
		q{SELECT t.goal, count(*) FROM sales s JOIN targets t USING (region) WHERE s.amount > 10
		  GROUP BY t.goal ORDER BY t.goal}),
	'join with a local table of the coordinator: exact');

is( charged_once(
		q{SELECT dp_sum(r.refunded, 0, 100, 1e6), dp_count(1e6) FROM sales s JOIN returns r USING (customer, id)},
		2, 'co-located join'),
	$cluster->sql('coordinator',
		q{SELECT sum(r.refunded), count(*) FROM sales s JOIN returns r USING (customer, id)}),
	'join with a co-located distributed table: exact');

is( charged_once(
		q{SELECT round((c).value), (c).mechanism, round((m).value::numeric, 3) FROM
		  (SELECT dp_count_ci(1e6, 1e-9, 'gaussian', 0.05) AS c, dp_mean_ci(price, 0, 250, 1e6, 1e-9, 'gaussian', 0.05) AS m
		   FROM sales) x},
		2, '*_ci forms'),
	$cluster->sql('coordinator',
		q{SELECT count(*), 'gaussian', round(avg(price)::numeric, 3) FROM sales}),
	'dp_count_ci and dp_mean_ci: exact values and the mechanism');

{
	# dp_variance and dp_stddev (0.11): the workers also sum each row's centred square
	# (pgdp.centred_squares); one ledger row per call, exact at a huge epsilon against var_pop and
	# stddev_pop of the clamped values, whole table and per group.
	my $released = charged_once(
		q{SELECT dp_variance(amount, 0, 100, 1e9), dp_stddev(price, 10, 250, 1e9, 1e-9, 'tlap') FROM sales},
		2, 'dp_variance and dp_stddev');
	my $exact = $cluster->sql('coordinator',
		q{SELECT var_pop(least(greatest(amount, 0), 100)), stddev_pop(least(greatest(price, 10), 250)) FROM sales});
	my ($variance, $stddev) = split /\|/, $released;
	my ($var_pop, $stddev_pop) = split /\|/, $exact;
	ok(abs($variance - $var_pop) < 1e-6 * 100**2 && abs($stddev - $stddev_pop) < 1e-6 * 240,
		'dp_variance and dp_stddev: var_pop and stddev_pop of the clamped values')
	  or diag("released $released, exact $exact");
	my @groups = split /\n/, charged_once(
		q{SELECT region, dp_variance(amount, 0, 50, 1e9), (dp_stddev_ci(amount, 0, 50, 1e9, 0.05)).ci_upper
		  FROM sales GROUP BY region ORDER BY region},
		2, 'dp_variance, dp_stddev_ci per region');
	my @references = split /\n/, $cluster->sql('coordinator',
		q{SELECT region, var_pop(least(amount, 50)), stddev_pop(least(amount, 50)) FROM sales GROUP BY region ORDER BY region});
	is(scalar @groups, scalar @references, 'dp_variance per region: every region');
	for my $i (0 .. $#references)
	{
		my ($region, $v, $upper) = split /\|/, $groups[$i];
		my ($reference_region, $reference, $reference_sd) = split /\|/, $references[$i];
		ok($region eq $reference_region && abs($v - $reference) < 1e-6 * 50**2 && $upper >= $reference_sd,
			"dp_variance of region $region: var_pop, and the stddev interval holds stddev_pop")
		  or diag("$groups[$i] vs $references[$i]");
	}
}

{
	# (record).* writes the call once per column: still one release, whose columns belong
	# together (the interval is centred on the value it was computed from).
	my $row = charged_once(q{SELECT (dp_sum_ci(amount, 0, 100, 1.0, 0, 'laplace', 0.05)).* FROM sales},
		1, '(dp_sum_ci(...)).*');
	my ($value, $lower, $upper, $sd, $alpha, $mechanism) = split /\|/, $row;
	ok(abs(($lower + $upper) / 2 - $value) < 1e-6 && $sd > 0 && $mechanism eq 'laplace',
		"(dp_sum_ci(...)).*: one release, its interval centred on its value ($row)");
}

{
	my %before = $cluster->release_counts;
	my $out = as_analyst(
		q{SET plan_cache_mode = force_generic_plan;
PREPARE by_region(float8, float8, int) AS
  SELECT dp_sum(amount, $1, $2, 1e6), dp_count(1e6) FROM sales WHERE region = $3;
EXECUTE by_region(0, 100, 3);
EXECUTE by_region(0, 100, 3);
EXECUTE by_region(0, 40, 4);});
	my %after = $cluster->release_counts;
	is($out,
		join("\n",
			$cluster->sql('coordinator', 'SELECT sum(amount), count(*) FROM sales WHERE region = 3'),
			$cluster->sql('coordinator', 'SELECT sum(amount), count(*) FROM sales WHERE region = 3'),
			$cluster->sql('coordinator', 'SELECT sum(least(amount, 40)), count(*) FROM sales WHERE region = 4')),
		'bind parameters under a generic plan: bounds and filter as bound, exact');
	is( sprintf('%d/%d/%d', map { $after{$_} - $before{$_} } @CitusCluster::NODE_NAMES),
		'6/0/0', 'bind parameters: one charge per release per EXECUTE, on the coordinator only');
}

like(
	$cluster->sql(
		'coordinator',
		q{SELECT query_text FROM pgdp.ledger WHERE aggregate = 'dp_count' ORDER BY charge_id DESC LIMIT 1}),
	qr/EXECUTE by_region\(0, 40, 4\)|PREPARE by_region/,
	'the ledger records the analyst\'s statement, not a Citus-internal one');

# ---------------------------------------------------------------------------------------------
# 2. Statistics: >= 500 releases per form at epsilon 1.

# The smallest k with P(Binomial(n, p) < k) <= alpha: fewer than k covering intervals out of n
# has probability <= alpha when each covers with probability >= p.
sub binomial_lower_bound
{
	my ($n, $p, $alpha) = @_;
	my $cdf = 0;
	for my $k (0 .. $n)
	{
		my $log = 0;
		$log += log($n - $_ + 1) - log($_) for 1 .. $k;
		$cdf += exp($log + $k * log($p) + ($n - $k) * log(1 - $p));
		return $k if $cdf > $alpha;
	}
	return $n;
}

my $releases_per_form = 500;
my $coverage_bound = binomial_lower_bound($releases_per_form, 0.95, 1e-6);

# Each form: a query returning (value, ci_lower, ci_upper, noise_sd) and its exact value.
my %exact_of = (
	region_amount => $expected->{region_amount}{3},
	rows => $rows,
	customer_amount => $cluster->sql('coordinator', 'SELECT sum(amount) FROM sales WHERE customer = 11'),
	joined => $cluster->sql('coordinator',
		q{SELECT count(*) FROM sales s JOIN regions r USING (region) WHERE r.name = 'region 5'}),
	mean => $cluster->sql('coordinator', 'SELECT avg(least(price, 200)) FROM sales WHERE region = 2'),
);
my @forms = (
	[ 'GROUP BY region, Laplace',
		q{SELECT (r).value, (r).ci_lower, (r).ci_upper, (r).noise_sd FROM (SELECT region, dp_sum_ci(amount, 0, 100, 1.0, 0, 'laplace', 0.05) AS r FROM sales GROUP BY region) x WHERE region = 3;},
		'region_amount' ],
	[ 'whole table, Gaussian count',
		q{SELECT (r).value, (r).ci_lower, (r).ci_upper, (r).noise_sd FROM (SELECT dp_count_ci(1.0, 1e-6, 'gaussian', 0.05) AS r FROM sales) x;},
		'rows' ],
	[ 'one shard, truncated Laplace',
		q{SELECT (r).value, (r).ci_lower, (r).ci_upper, (r).noise_sd FROM (SELECT dp_sum_ci(amount, 0, 100, 1.0, 1e-6, 'tlap', 0.05) AS r FROM sales WHERE customer = 11) x;},
		'customer_amount' ],
	[ 'join with the reference table, auto',
		q{SELECT (r).value, (r).ci_lower, (r).ci_upper, (r).noise_sd FROM (SELECT r.name, dp_count_ci(1.0, 1e-6, 'auto', 0.05) AS r FROM sales s JOIN regions r USING (region) GROUP BY r.name) x WHERE name = 'region 5';},
		'joined' ],
	[ 'bind parameters, dp_mean_ci',
		q{EXECUTE mean_of(2, 200);},
		'mean',
		q{PREPARE mean_of(int, float8) AS SELECT (r).value, (r).ci_lower, (r).ci_upper, (r).noise_sd FROM (SELECT dp_mean_ci(price, 0, $2, 1.0, 1e-6, 'gaussian', 0.05) AS r FROM sales WHERE region = $1) x;}
	],
);

for my $form (@forms)
{
	my ($name, $query, $exact_key, $setup) = @$form;
	my $exact = $exact_of{$exact_key};
	my %before = $cluster->release_counts;
	my $out = as_analyst(($setup // '') . ($query x $releases_per_form));
	my %after = $cluster->release_counts;
	my @lines = split /\n/, $out;
	is(scalar @lines, $releases_per_form, "$name: $releases_per_form releases");
	my ($covered, @errors, @sds) = (0);
	for my $line (@lines)
	{
		my ($value, $lower, $upper, $sd) = split /\|/, $line;
		$covered++ if $lower <= $exact && $exact <= $upper;
		push @errors, $value - $exact;
		push @sds, $sd;
	}
	my $n = scalar @errors;
	my $mean_error = sum(@errors) / $n;
	my $spread = sqrt(sum(map { ($_ - $mean_error)**2 } @errors) / ($n - 1));
	my $reported = $sds[0];
	cmp_ok($covered, '>=', $coverage_bound,
		"$name: $covered of $n 95% intervals cover the exact value (bound $coverage_bound, false failure <= 1e-6)");
	# Laplace-tailed errors: the sample sd's relative standard error is <= sqrt(5 / (4 n)) = 5 % at
	# n = 500; 25 % is 5 standard errors. A release without noise fails here.
	cmp_ok(abs($spread / $reported - 1), '<', 0.25,
		"$name: the errors' sd $spread matches the reported noise_sd $reported");
	cmp_ok(abs($mean_error), '<', 5 * $reported / sqrt($n), "$name: mean error $mean_error within 5 SE of 0");
	is( sprintf('%d/%d/%d', map { $after{$_} - $before{$_} } @CitusCluster::NODE_NAMES),
		"$releases_per_form/0/0",
		"$name: one ledger row per release on the coordinator, none on the workers");
}

# ---------------------------------------------------------------------------------------------
# 3. A budget that runs out part-way.
{
	$cluster->sql('coordinator',
		q{CREATE ROLE thrifty LOGIN; GRANT SELECT ON sales TO thrifty; SELECT pgdp.set_budget('thrifty', 2.5, 0);});
	my $query = 'SELECT region, dp_count(1.0) FROM sales GROUP BY region';
	refused_uncharged('thrifty', 'coordinator',
		'SELECT dp_count(1.0), dp_sum(amount, 0, 100, 1.0), dp_mean(amount, 0, 100, 1.0) FROM sales',
		'53400', 'three releases over a budget for two and a half');
	my @outcomes;
	for (1 .. 3)
	{
		my %before = $cluster->release_counts;
		my ($rc) = try_as('thrifty', 'coordinator', $query);
		my %after = $cluster->release_counts;
		push @outcomes,
		  ($rc == 0 ? 'ok' : 'refused') . ':'
		  . join('/', map { $after{$_} - $before{$_} } @CitusCluster::NODE_NAMES);
	}
	is("@outcomes", 'ok:1/0/0 ok:1/0/0 refused:0/0/0',
		'the budget runs out part-way: two grouped releases charged once each, the third refused uncharged');
}

# ---------------------------------------------------------------------------------------------
# 4. Hostile calls.
{
	my $plan = as_analyst(
		q{EXPLAIN (VERBOSE, COSTS OFF) SELECT region, dp_count(1e6) FROM sales GROUP BY region});
	my ($text) = $plan =~ /distributed_partials\('((?:[^']|'')*)'::text\)/;
	ok(defined $text && length($text) > 100, 'EXPLAIN VERBOSE shows the partials query pgdp wrote');
	$text //= 'x';
	my $stderr = refused_uncharged('analyst', 'coordinator',
		"SELECT * FROM pgdp.distributed_partials('$text') AS p(k int, r bigint)",
		'42501', 'pgdp.distributed_partials called with the text of a real plan');
	unlike($stderr, qr/\b14\d\d\b/, 'no total in the refusal');
	refused_uncharged('analyst', 'coordinator',
		"SELECT region, dp_count(1e6) FROM pgdp.distributed_partials('$text') AS p(region int, c bigint) GROUP BY region",
		'42501', 'pgdp.distributed_partials under a pgdp aggregate the analyst wrote');
	refused_uncharged('analyst', 'coordinator',
		q{SELECT worker_partial_agg('dp_count(float8)'::regprocedure, 1e6::float8) FROM sales},
		'0A000', "Citus's worker_partial_agg on dp_count");
	refused_uncharged('analyst', 'coordinator',
		q{SELECT worker_partial_agg('dp_count(float8)'::regprocedure, 1e6::float8) FROM sales GROUP BY customer},
		'0A000', "worker_partial_agg on dp_count, pushed down to the workers");
	refused_uncharged('analyst', 'coordinator',
		q{SET application_name = 'citus_internal gpid=10000000001'; SELECT dp_count(1e6) FROM sales},
		'0A000', 'a session that claims to be a Citus-internal connection');
	# Estimated bounds (0.12) need the rows' log bins, not the workers' clamped totals: refused
	# before any charge (docs/privacy.md "Bounds the analyst need not guess").
	refused_uncharged('analyst', 'coordinator',
		q{SELECT dp_sum(amount, NULL, NULL, 1e6) FROM sales},
		'0A000', 'dp_sum with NULL bounds over a distributed table');
	refused_uncharged('analyst', 'coordinator',
		q{SELECT region, dp_mean(price, 0, NULL, 1e6) FROM sales GROUP BY region},
		'0A000', 'dp_mean with a NULL bound over a distributed table, grouped');
	my $shard = $cluster->sql('coordinator',
		q{SELECT shard_name FROM citus_shards WHERE table_name = 'sales'::regclass AND nodeport = }
		  . $cluster->node('worker1')->port . ' LIMIT 1');
	$cluster->sql('worker1', "SELECT pgdp.set_budget('analyst', 1e12, 0.9)");
	refused_uncharged('analyst', 'worker1',
		qq{SET citus.override_table_visibility = off; SET application_name = 'citus_internal gpid=10000000002'; SELECT dp_count(1e6) FROM $shard},
		'0A000', 'a pgdp aggregate on a shard in a Citus-internal connection of a worker');
	refused_uncharged('outsider', 'coordinator', 'SELECT dp_count(1e6) FROM sales',
		'42501', 'a role without SELECT on the distributed table (checked before the charge)');
	refused_uncharged('analyst', 'coordinator',
		'SELECT region, dp_count(1e6), count(*) FROM sales GROUP BY region',
		'0A000', 'an exact aggregate beside the releases');
	refused_uncharged('analyst', 'coordinator',
		'SELECT x.c, (SELECT count(*) FROM sales) FROM (SELECT dp_count(1e6) AS c FROM sales) x',
		'0A000', 'a distributed table read outside the releasing level');
	refused_uncharged('analyst', 'coordinator',
		'SELECT r.region, (SELECT dp_count(1e6) FROM sales s WHERE s.region = r.region) FROM regions r',
		'0A000', 'a release correlated with an outer query');
	refused_uncharged('analyst', 'coordinator',
		'SELECT dp_sum(amount, 0, amount, 1e6) FROM sales',
		'22023', 'a privacy parameter read from the rows');
}

# ---------------------------------------------------------------------------------------------
# 6. The release cache (issue 13) on Citus: a repeated release over distributed tables with data
#    epochs is answered on the coordinator without a charge and without running the partials; the
#    distributed tables' permissions are still checked; a new epoch is a new release.
{
	$cluster->sql('coordinator',
		q{SELECT (pgdp.set_refresh_policy('sales')).epoch; SELECT (pgdp.set_refresh_policy('regions')).epoch;});
	my $panel = q{SELECT r.name, dp_count_ci(1.0, 0, 'laplace', 0.05) FROM sales s JOIN regions r USING (region)
		GROUP BY r.name ORDER BY r.name};
	my $first = charged_once($panel, 1, 'a Citus panel with data epochs, first run');
	my $second = charged_once($panel, 0, 'the same panel again');
	is($second =~ s/,t\)/,f)/gr, $first, 'the repeat is the stored answer (dp_release marked from_cache)');
	like($second, qr/,t\)/, 'from_cache is true in the repeated dp_release values');
	$cluster->sql('coordinator', 'REVOKE SELECT ON sales FROM analyst');
	refused_uncharged('analyst', 'coordinator', $panel, '42501',
		'the cached Citus panel after SELECT on the distributed table was revoked');
	$cluster->sql('coordinator', 'GRANT SELECT ON sales TO analyst');
	$cluster->sql('coordinator', q{SELECT pgdp.refresh('sales')});
	my $third = charged_once($panel, 1, 'after pgdp.refresh: a new release');
	isnt($third, $first, 'a new epoch: new noise');
}

# ---------------------------------------------------------------------------------------------
# 5. A worker queried directly is a node with its own ledger.
{
	my %before = $cluster->release_counts;
	my $out = $cluster->node('worker1')->safe_psql('postgres',
		'SELECT dp_count(1e6) FROM sales', extra_params => [ '-U', 'analyst' ]);
	my %after = $cluster->release_counts;
	is($out, $rows, 'a worker answers a release over the distributed table itself');
	is( sprintf('%d/%d/%d', map { $after{$_} - $before{$_} } @CitusCluster::NODE_NAMES),
		'0/1/0', 'charged once, on that worker\'s own ledger');
}

$cluster->stop;
done_testing();
