
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
#   5. a worker queried directly is a node with its own ledger;
#   6. the release cache over distributed tables;
#   7. dp_histogram, the quantiles and dp_count_distinct (0.12): width_bucket, percentile_disc
#      (within one leaf) and count(DISTINCT) at epsilon 1e9, whole table and grouped by either
#      column, beside totals and with FILTER, bind parameters, noise at epsilon 1, and what the split
#      refuses before any charge; (0.14) the quantiles with NULL bounds over values of every kind:
#      percentile_disc within the log leaf (2^-8) and the same query over a local copy;
#   8. the release cache for those statistics;
#   9. (0.14) dp_sum, dp_mean, dp_variance, dp_stddev and their *_ci forms with NULL bounds: equal
#      to the same query on a local copy and to PostgreSQL's statistics of the values clamped to the
#      reported bounds at epsilon 1e9, grouped either way, FILTER, beside bounded calls, one bound
#      given, int, real, float8 and numeric, bind parameters; noise at epsilon 1; refusals.
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
		q{SELECT round((c).value), (c).mechanism, round((m).value::numeric, 3),
		         (c).lower_bound IS NULL AND (c).upper_bound IS NULL, (m).lower_bound, (m).upper_bound FROM
		  (SELECT dp_count_ci(1e6, 1e-9, 'gaussian', 0.05) AS c, dp_mean_ci(price, 0, 250, 1e6, 1e-9, 'gaussian', 0.05) AS m
		   FROM sales) x},
		2, '*_ci forms'),
	$cluster->sql('coordinator',
		q{SELECT count(*), 'gaussian', round(avg(price)::numeric, 3), true, 0::float8, 250::float8 FROM sales}),
	'dp_count_ci and dp_mean_ci: exact values, the mechanism and the bounds used (none for the count)');

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
	# NULL bounds (0.14: the workers bin the rows, section 9) cannot share a level with another
	# state key: refused before any charge.
	refused_uncharged('analyst', 'coordinator',
		q{SELECT dp_sum(amount, NULL, NULL, 1e6), dp_median(price, 0, 250, 1e6) FROM sales},
		'0A000', 'dp_sum with NULL bounds beside dp_median over a distributed table');
	refused_uncharged('analyst', 'coordinator',
		q{SELECT region, dp_stddev(price, 0, NULL, 1e6), dp_histogram(amount, 0, 100, 4, 1e6) FROM sales GROUP BY region},
		'0A000', 'dp_stddev with a NULL bound beside dp_histogram, grouped');
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
# 7. dp_histogram, the quantiles and dp_count_distinct (issue 24 part 6): the workers count the
#    level's rows per bin, quantile-tree leaf or value hash; at epsilon 1e9 each release equals
#    PostgreSQL's own width_bucket counts, percentile_disc (within one leaf of the tree) and
#    count(DISTINCT) over the same distributed table, whole, grouped by another column and by the
#    distribution column, one ledger row per call on the coordinator and none on the workers.

# "group|bin:count bin:count ..." lines from rows (group, bin, count), every bin 0..bins+1 written
# (PostgreSQL's GROUP BY omits empty bins).
sub bins_by_group
{
	my ($rows, $bins) = @_;
	my %counts;
	for my $line (split /\n/, $rows)
	{
		my ($group, $bin, $count) = split /\|/, $line;
		$counts{$group}{$bin} += $count;
	}
	return join "\n", map {
		my $group = $_;
		"$group|" . join ' ', map { "$_:" . ($counts{$group}{$_} // 0) } 0 .. $bins + 1
	} sort { $a <=> $b } keys %counts;
}

{
	my $histogram_rows = q{SELECT %s, (b).bin, (b).count
		FROM (SELECT %s AS g, dp_histogram(price, 10, 200, 7, 1e9) AS h FROM sales %s) x, unnest(x.h) b};
	my $width_bucket_rows = q{SELECT %s, width_bucket(price, 10, 200, 7), count(*) FROM sales %s GROUP BY 1, 2};
	is( bins_by_group(charged_once(sprintf($histogram_rows, 0, 0, ''), 1, 'dp_histogram, whole table'), 7),
		bins_by_group($cluster->sql('coordinator', sprintf($width_bucket_rows, 0, '')), 7),
		'dp_histogram over a distributed table: width_bucket counts, the outer bins included');
	is( bins_by_group(
			charged_once(sprintf($histogram_rows, 'g', 'region', 'GROUP BY region'), 1,
				'dp_histogram per region'),
			7),
		bins_by_group($cluster->sql('coordinator', sprintf($width_bucket_rows, 'region', '')), 7),
		'dp_histogram GROUP BY a non-distribution column: width_bucket counts per group');
	is( bins_by_group(
			charged_once(sprintf($histogram_rows, 'g', 'customer', 'GROUP BY customer'), 1,
				'dp_histogram per customer'),
			7),
		bins_by_group($cluster->sql('coordinator', sprintf($width_bucket_rows, 'customer', '')), 7),
		'dp_histogram GROUP BY the distribution column: width_bucket counts per group (1000 groups)');
}

{
	# Beside totals in one level, with a FILTER: the partials are split by bin, the totals still add
	# up per group, and the histogram counts only the filtered rows.
	my $released = charged_once(
		q{SELECT region, c, s, (SELECT string_agg((b).count::text, ' ' ORDER BY (b).bin) FROM unnest(h) b)
		  FROM (SELECT region, dp_count(1e9) AS c, dp_sum(amount, 0, 100, 1e9) AS s,
		               dp_histogram(amount, 0, 100, 4, 1e9) FILTER (WHERE price < 100) AS h
		        FROM sales GROUP BY region) x ORDER BY region},
		3, 'dp_histogram with a FILTER beside dp_count and dp_sum');
	my $exact = $cluster->sql('coordinator',
		q{SELECT region, count(*), sum(amount),
		         concat_ws(' ', 0, count(*) FILTER (WHERE price < 100 AND width_bucket(amount, 0, 100, 4) = 1),
		                   count(*) FILTER (WHERE price < 100 AND width_bucket(amount, 0, 100, 4) = 2),
		                   count(*) FILTER (WHERE price < 100 AND width_bucket(amount, 0, 100, 4) = 3),
		                   count(*) FILTER (WHERE price < 100 AND width_bucket(amount, 0, 100, 4) = 4), 0)
		  FROM sales GROUP BY region ORDER BY region});
	is($released, $exact,
		'a filtered dp_histogram beside dp_count and dp_sum: each exact (amount in [0, 100): no outer bin)');
}

{
	# percentile_disc within one leaf, (upper - lower) / 65536, for every level.
	my $leaf = 250 / 65536;
	my $levels = '{0.05,0.25,0.5,0.75,0.99}';
	my $within_a_leaf = sub {
		my ($released, $exact, $name) = @_;
		my @r = split /\n/, $released;
		my @e = split /\n/, $exact;
		my $bad = scalar(@r) == scalar(@e) ? 0 : 1;
		for my $i (0 .. $#e)
		{
			my ($rg, @rv) = split /[|,{}]+/, $r[$i] // '';
			my ($eg, @ev) = split /[|,{}]+/, $e[$i];
			$bad++ if $rg ne $eg || @rv != @ev;
			for my $j (0 .. $#ev) { $bad++ unless defined $rv[$j] && abs($rv[$j] - $ev[$j]) <= $leaf; }
		}
		is($bad, 0, $name) or diag("released:\n$released\nexact:\n$exact");
	};
	$within_a_leaf->(
		charged_once(
			qq{SELECT 0, dp_quantiles(price, 0, 250, '$levels', 1e9), dp_median(price, 0, 250, 1e9),
			          dp_quantile(price, 0, 250, 0.9, 1e9) FROM sales},
			3, 'dp_quantiles, dp_median and dp_quantile sharing one leaf key'),
		$cluster->sql('coordinator',
			qq{SELECT 0, percentile_disc('$levels'::float8[]) WITHIN GROUP (ORDER BY price),
			          percentile_disc(0.5) WITHIN GROUP (ORDER BY price),
			          percentile_disc(0.9) WITHIN GROUP (ORDER BY price) FROM sales}),
		'the quantiles over a distributed table: percentile_disc within one leaf');
	$within_a_leaf->(
		charged_once(
			qq{SELECT region, dp_quantiles(price, 0, 250, '$levels', 1e9) FROM sales WHERE id % 7 <> 3
			   GROUP BY region ORDER BY region},
			1, 'dp_quantiles per region'),
		$cluster->sql('coordinator',
			qq{SELECT region, percentile_disc('$levels'::float8[]) WITHIN GROUP (ORDER BY price)
			   FROM sales WHERE id % 7 <> 3 GROUP BY region ORDER BY region}),
		'dp_quantiles GROUP BY a non-distribution column: percentile_disc per group within one leaf');
	$within_a_leaf->(
		charged_once(
			q{SELECT customer, dp_median(amount + price, 0, 250, 1e9) FROM sales GROUP BY customer ORDER BY customer},
			1, 'dp_median per customer'),
		$cluster->sql('coordinator',
			q{SELECT customer, percentile_disc(0.5) WITHIN GROUP (ORDER BY least(amount + price, 250))
			  FROM sales GROUP BY customer ORDER BY customer}),
		'dp_median GROUP BY the distribution column: percentile_disc of the clamped values within one leaf');
}

{
	is( charged_once(
			q{SELECT dp_count_distinct(note, 1e9), dp_count(1e9) FROM sales WHERE id % 3 = 0;
			  SELECT dp_count_distinct(price, 1e9) FILTER (WHERE region = 3), dp_count(1e9) FILTER (WHERE region = 3) FROM sales},
			4, 'dp_count_distinct of text, and of a filtered float8'),
		$cluster->sql('coordinator',
			q{SELECT count(DISTINCT note), count(*) FROM sales WHERE id % 3 = 0;
			  SELECT count(DISTINCT price) FILTER (WHERE region = 3), count(*) FILTER (WHERE region = 3) FROM sales}),
		'dp_count_distinct over a distributed table: count(DISTINCT) of text, and with a FILTER (dp_count beside it)');
	is( charged_once(
			q{SELECT region, dp_count_distinct(customer, 1e9, 1e-9, 'tlap') FROM sales GROUP BY region ORDER BY region},
			1, 'dp_count_distinct per region'),
		$cluster->sql('coordinator',
			q{SELECT region, count(DISTINCT customer) FROM sales GROUP BY region ORDER BY region}),
		'dp_count_distinct GROUP BY a non-distribution column: count(DISTINCT) per group');
	is( charged_once(
			q{SELECT customer, dp_count_distinct(amount % 7, 1e9) FROM sales WHERE id % 5 <> 0 GROUP BY customer ORDER BY customer},
			1, 'dp_count_distinct per customer'),
		$cluster->sql('coordinator',
			q{SELECT customer, count(DISTINCT amount % 7) FROM sales WHERE id % 5 <> 0 GROUP BY customer ORDER BY customer}),
		'dp_count_distinct GROUP BY the distribution column: count(DISTINCT) per group');
}

{
	# Bind parameters under a generic plan: the bounds, the bins and the level reach the workers.
	my $out = charged_once(
		q{SET plan_cache_mode = force_generic_plan;
PREPARE shape(float8, int, int) AS
  SELECT (SELECT string_agg((b).count::text, ' ' ORDER BY (b).bin) FROM unnest(h) b)
  FROM (SELECT dp_histogram(price, 0, $1, $2, 1e9) AS h FROM sales WHERE region = $3) x;
EXECUTE shape(100, 4, 2);
EXECUTE shape(250, 2, 5);},
		2, 'dp_histogram with bind parameters');
	my $exact = join "\n", map {
		my ($upper, $bins, $region) = @$_;
		join ' ', split /\|/, $cluster->sql('coordinator',
			"SELECT " . join(', ',
				map { "count(*) FILTER (WHERE width_bucket(price, 0, $upper, $bins) = $_)" } 0 .. $bins + 1)
			  . " FROM sales WHERE region = $region");
	} ([ 100, 4, 2 ], [ 250, 2, 5 ]);
	is($out, $exact, 'dp_histogram with the bounds, bins and filter as bind parameters: width_bucket counts');
}

{
	# Noise is added on the coordinator: 300 releases of a distinct count at epsilon 1 (Laplace of
	# scale 1, sd sqrt 2); the sample sd's relative standard error is sqrt(5 / (4 n)) = 6.5 %, 25 %
	# is about 4 of them. A release without noise fails here.
	my $n = 300;
	my $exact = $cluster->sql('coordinator', 'SELECT count(DISTINCT price) FROM sales WHERE region = 4');
	my @values = split /\n/,
	  charged_once('SELECT dp_count_distinct(price, 1.0) FROM sales WHERE region = 4;' x $n, $n,
		"$n distinct counts at epsilon 1");
	my @errors = map { $_ - $exact } @values;
	my $mean = sum(@errors) / $n;
	my $sd = sqrt(sum(map { ($_ - $mean)**2 } @errors) / ($n - 1));
	cmp_ok(abs($sd / sqrt(2) - 1), '<', 0.25, "dp_count_distinct on Citus at epsilon 1: error sd $sd, Laplace's sqrt 2");
	cmp_ok(abs($mean), '<', 5 * sqrt(2) / sqrt($n), "dp_count_distinct on Citus: mean error $mean within 5 SE of 0");
}

{
	# NULL bounds (0.14): the workers' pgdp.quantile_leaf cuts the single-node quantiles' log-linear
	# leaves (256 per power of two over [-2^64, 2^64], values clamped to a given bound). A table of
	# values over many binades, negatives, zeros, tiny and subnormal values, +-Infinity and values
	# beyond 2^64 (clamped to +-2^64), NaN and NULL (no rows). At epsilon 1e9 every answer lies in the
	# leaf of PostgreSQL's percentile_disc of the clamped values, within max(|p| / 256, 2^-63) of it
	# (as sql/quantile_null_bounds.sql on one node), and equals the same query over a local copy.
	$cluster->sql(
		'coordinator', q{
CREATE TABLE spread (id bigint, customer int, team int, k int, x float8);
SELECT create_distributed_table('spread', 'customer', colocate_with := 'sales');
INSERT INTO spread
SELECT i, i % 97, i % 4, i % 100, CASE WHEN i % 7 = 0 THEN -v WHEN i % 11 = 0 THEN 0 ELSE v END
FROM (SELECT i, exp(((i * 7919) % 5000) / 100.0 - 25) AS v FROM generate_series(1, 6000) i) s;
INSERT INTO spread VALUES (6001, 1, 1, 1, 'NaN'), (6002, 2, 2, 2, NULL), (6003, 3, 3, 3, 'Infinity'),
    (6004, 4, 0, 4, '-Infinity'), (6005, 5, 1, 5, 1e30), (6006, 6, 2, 6, -1e30), (6007, 7, 3, 7, 5e-20),
    (6008, 8, 0, 8, 1e-300), (6009, 9, 1, 9, '-0'), (6010, 10, 2, 10, 4.9e-324),
    (6011, 11, 3, 11, 18446744073709551616), (6012, 12, 0, 12, -1.2e21), (6013, 13, 1, 13, 'NaN');
CREATE TABLE spread_local AS SELECT * FROM spread;
GRANT SELECT ON spread, spread_local TO analyst;
ANALYZE spread, spread_local;
});
	my $limit = 2**64;
	my $levels = '{0,0.01,0.1,0.25,0.5,0.75,0.9,0.99,1}';
	# The clamped values percentile_disc orders (NaN and NULL excluded, as the releases count them).
	my $clamped = sub {
		my ($lower, $upper) = @_;
		return sprintf('least(greatest(x, %s), %s)', $lower // "-(2::float8 ^ 64)", $upper // "2::float8 ^ 64");
	};
	# Every value of every line within the log leaf's resolution of the reference (same groups).
	my $in_log_leaves = sub {
		my ($released, $exact, $name) = @_;
		my @r = split /\n/, $released;
		my @e = split /\n/, $exact;
		my $bad = scalar(@r) == scalar(@e) ? 0 : 1;
		for my $i (0 .. $#e)
		{
			my ($rg, @rv) = split /[|,{}]+/, $r[$i] // '';
			my ($eg, @ev) = split /[|,{}]+/, $e[$i];
			$bad++ if $rg ne $eg || @rv != @ev;
			for my $j (0 .. $#ev)
			{
				my $resolution = abs($ev[$j]) / 256 > 2**-63 ? abs($ev[$j]) / 256 : 2**-63;
				$bad++ unless defined $rv[$j] && abs($rv[$j] - $ev[$j]) <= $resolution;
			}
		}
		is($bad, 0, $name) or diag("released:\n$released\nexact:\n$exact");
	};
	# The release over spread, charged once on the coordinator, and the same over the local copy.
	my $citus_and_local = sub {
		my ($sql, $count, $name) = @_;
		(my $local_sql = $sql) =~ s/\bspread\b/spread_local/g;
		my $citus = charged_once($sql, $count, "$name (Citus)");
		my $local = charged_once($local_sql, $count, "$name (local copy)");
		is($citus, $local, "$name: the Citus release is the local table's");
		return $citus;
	};

	my $whole = $citus_and_local->(
		qq{SELECT 0, dp_quantiles(x, NULL, NULL, '$levels', 1e9), dp_median(x, NULL, NULL, 1e9),
		          dp_quantile(x, NULL, NULL, 0.9, 1e9) FROM spread},
		3, 'NULL-bound dp_quantiles, dp_median and dp_quantile sharing one leaf key');
	$in_log_leaves->(
		$whole,
		$cluster->sql('coordinator',
			    "SELECT 0, percentile_disc('$levels'::float8[]) WITHIN GROUP (ORDER BY "
			  . $clamped->() . '), percentile_disc(0.5) WITHIN GROUP (ORDER BY '
			  . $clamped->() . '), percentile_disc(0.9) WITHIN GROUP (ORDER BY '
			  . $clamped->() . q{) FROM spread WHERE x <> 'NaN'}),
		'NULL-bound quantiles over a distributed table: percentile_disc within the log leaf (2^-8)');

	$in_log_leaves->(
		$citus_and_local->(
			qq{SELECT team, dp_quantiles(x, NULL, NULL, '$levels', 1e9) FROM spread WHERE id % 5 <> 2
			   GROUP BY team ORDER BY team},
			1, 'NULL-bound dp_quantiles per team'),
		$cluster->sql('coordinator',
			    "SELECT team, percentile_disc('$levels'::float8[]) WITHIN GROUP (ORDER BY "
			  . $clamped->()
			  . q{) FROM spread WHERE id % 5 <> 2 AND x <> 'NaN' GROUP BY team ORDER BY team}),
		'NULL-bound dp_quantiles GROUP BY a non-distribution column: percentile_disc per group');
	$in_log_leaves->(
		$citus_and_local->(
			q{SELECT customer, dp_median(x, NULL, NULL, 1e9) FROM spread GROUP BY customer ORDER BY customer},
			1, 'NULL-bound dp_median per customer'),
		$cluster->sql('coordinator',
			'SELECT customer, percentile_disc(0.5) WITHIN GROUP (ORDER BY '
			  . $clamped->()
			  . q{) FROM spread WHERE x <> 'NaN' GROUP BY customer ORDER BY customer}),
		'NULL-bound dp_median GROUP BY the distribution column: percentile_disc per group (97 groups)');

	# One bound given: the rows are clamped to it and the answers stay on its side.
	for my $bounds ([ '0', undef ], [ undef, '100' ], [ '-1e-3', undef ], [ undef, '-5e-20' ])
	{
		my ($lower, $upper) = @$bounds;
		my $call = sprintf('dp_quantiles(x, %s, %s, \'%s\', 1e9)', $lower // 'NULL', $upper // 'NULL', $levels);
		my $released = $citus_and_local->("SELECT 0, $call FROM spread", 1, $call);
		$in_log_leaves->(
			$released,
			$cluster->sql('coordinator',
				"SELECT 0, percentile_disc('$levels'::float8[]) WITHIN GROUP (ORDER BY "
				  . $clamped->($lower, $upper)
				  . q{) FROM spread WHERE x <> 'NaN'}),
			"$call over a distributed table: percentile_disc of the clamped values within the log leaf");
		my (undef, @values) = split /[|,{}]+/, $released;
		my $outside = grep { (defined $lower && $_ < $lower) || (defined $upper && $_ > $upper) } @values;
		is($outside, 0, "$call: every answer on the given bound's side");
	}

	# Beside totals, with a FILTER on the median: the totals stay exact per group.
	my $released = $citus_and_local->(
		q{SELECT team, dp_count(1e9), dp_sum(k, 0, 100, 1e9), dp_median(x, NULL, NULL, 1e9) FILTER (WHERE id % 3 = 0)
		  FROM spread GROUP BY team ORDER BY team},
		3, 'a filtered NULL-bound dp_median beside dp_count and dp_sum');
	my $totals = $cluster->sql('coordinator',
		q{SELECT team, count(*), sum(k) FROM spread GROUP BY team ORDER BY team});
	is(join("\n", map { join '|', (split /\|/)[ 0 .. 2 ] } split /\n/, $released),
		$totals, 'dp_count and dp_sum beside the NULL-bound median: exact at epsilon 1e9');
	$in_log_leaves->(
		join("\n", map { join '|', (split /\|/)[ 0, 3 ] } split /\n/, $released),
		$cluster->sql('coordinator',
			'SELECT team, percentile_disc(0.5) WITHIN GROUP (ORDER BY '
			  . $clamped->()
			  . q{) FROM spread WHERE id % 3 = 0 AND x <> 'NaN' GROUP BY team ORDER BY team}),
		'the filtered NULL-bound median beside totals: percentile_disc of the filtered rows');

	# Bind parameters under a generic plan: one prepared statement, the bounds NULL or not per
	# execution (the last one bounded: the linear leaves, within (upper - lower) / 65536).
	my @executions = ([ undef, undef, 0.5 ], [ '0', undef, 0.25 ], [ undef, '100', 0.75 ], [ undef, undef, 0.99 ]);
	my $prepared = $citus_and_local->(
		q{SET plan_cache_mode = force_generic_plan;
PREPARE nb(float8, float8, float8) AS SELECT 0, dp_quantile(x, $1, $2, $3, 1e9) FROM spread WHERE team <> 3;
}
		  . join('', map { sprintf("EXECUTE nb(%s, %s, %s);\n", $_->[0] // 'NULL', $_->[1] // 'NULL', $_->[2]) } @executions)
		  . "EXECUTE nb(-10, 250, 0.5);\n",
		scalar(@executions) + 1, 'dp_quantile with NULL and given bounds as bind parameters (generic plan)');
	my @lines = split /\n/, $prepared;
	my $bounded = pop @lines;
	$in_log_leaves->(
		join("\n", @lines),
		join("\n", map {
			$cluster->sql('coordinator',
				"SELECT 0, percentile_disc($_->[2]) WITHIN GROUP (ORDER BY "
				  . $clamped->($_->[0], $_->[1])
				  . q{) FROM spread WHERE team <> 3 AND x <> 'NaN'})
		} @executions),
		'NULL bounds as bind parameters reach the workers: percentile_disc within the log leaf');
	my $p = $cluster->sql('coordinator',
		q{SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY least(greatest(x, -10), 250)) FROM spread
		  WHERE team <> 3 AND x <> 'NaN'});
	my (undef, $median) = split /\|/, $bounded;
	cmp_ok(abs($median - $p), '<=', 260 / 65536,
		'the same prepared statement with both bounds given: the linear leaf of percentile_disc');

	# Noise is added on the coordinator at epsilon 1: 100 NULL-bound medians of one team are not one
	# value, and each stays near the median's rank (node noise sd 4 sqrt 2 counts, 1500 rows).
	my $n = 100;
	my @medians = split /\n/,
	  charged_once('SELECT dp_median(x, NULL, NULL, 1.0) FROM spread WHERE team = 1;' x $n, $n,
		"$n NULL-bound medians at epsilon 1");
	my %distinct = map { $_ => 1 } @medians;
	cmp_ok(scalar(keys %distinct), '>=', $n / 2, 'NULL-bound medians at epsilon 1: noisy (distinct values)');
	my $array = '{' . join(',', @medians) . '}';
	my $ranks = $cluster->sql('coordinator',
		qq{SELECT max(abs(r - 0.5)) FROM (SELECT (SELECT avg((s.x <= m)::int) FROM spread_local s
		   WHERE s.team = 1 AND s.x <> 'NaN') AS r FROM unnest('$array'::float8[]) m) x});
	cmp_ok($ranks, '<', 0.1, "NULL-bound medians at epsilon 1: every rank within 0.1 of 0.5 (worst $ranks)");

	# Refused before any charge, naming the argument: a given bound next to a NULL one beyond 2^63,
	# NaN as a bind parameter, two different trees in one level.
	my $stderr = refused_uncharged('analyst', 'coordinator', 'SELECT dp_median(x, 1e300, NULL, 1e6) FROM spread',
		'22023', 'a NULL-bound median with a given bound beyond 2^63');
	like($stderr, qr/22023: lower must/, 'the refusal names lower');
	like($stderr, qr/HINT:/, 'the refusal has a hint');
	refused_uncharged('analyst', 'coordinator',
		'SET plan_cache_mode = force_generic_plan; '
		  . 'PREPARE nan_bound(float8) AS SELECT dp_median(x, NULL, $1, 1e6) FROM spread; '
		  . q{EXECUTE nan_bound('NaN')},
		'22023', 'a NaN bound beside a NULL one as a bind parameter (generic plan)');
	refused_uncharged('analyst', 'coordinator',
		'SELECT dp_median(x, NULL, NULL, 1e6), dp_median(x, 0, NULL, 1e6) FROM spread',
		'0A000', 'two NULL-bound quantile trees of different bounds in one level (two state keys)');
}

{
	# Refused before any charge: what the split cannot do for these statistics.
	refused_uncharged('analyst', 'coordinator', 'SELECT dp_count_distinct(DISTINCT note, 1e6) FROM sales',
		'0A000', 'DISTINCT inside dp_count_distinct');
	refused_uncharged('analyst', 'coordinator', 'SELECT dp_median(price, 0, 250, 1e6 ORDER BY id) FROM sales',
		'0A000', 'ORDER BY inside dp_median');
	refused_uncharged('analyst', 'coordinator', 'SELECT dp_histogram(price, 0, 250, 5, 1e6) OVER () FROM sales',
		'0A000', 'dp_histogram as a window function');
	refused_uncharged('analyst', 'coordinator',
		'SELECT dp_histogram(amount, 0, 100, 10, 1e6), dp_median(amount, 0, 100, 1e6) FROM sales',
		'0A000', 'a histogram and a quantile tree in one level (two state keys)');
	refused_uncharged('analyst', 'coordinator',
		'SELECT dp_count_distinct(note, 1e6), dp_count_distinct(price, 1e6) FROM sales',
		'0A000', 'distinct counts of two values in one level');
	refused_uncharged('analyst', 'coordinator',
		'SELECT dp_median(price, 0, 250, 1e6), percentile_disc(0.5) WITHIN GROUP (ORDER BY price) FROM sales',
		'0A000', 'an exact percentile_disc beside dp_median');
	refused_uncharged('analyst', 'coordinator',
		'SELECT dp_count_distinct(point(price, price), 1e6) FROM sales',
		'42883', 'dp_count_distinct of a type without an extended hash function');
	refused_uncharged('analyst', 'coordinator', 'SELECT dp_histogram(price, NULL, 250, 5, 1e6) FROM sales',
		'0A000', 'dp_histogram with a NULL bound (no bounds are estimated on Citus)');
	# A NULL bound as a bind parameter of a generic plan is no constant the planner can refuse: the
	# parameters read before the charge refuse it (22004 for dp_histogram, 0A000 for the totals),
	# before any worker runs. (The quantiles take NULL bounds on Citus since 0.14: above.)
	refused_uncharged('analyst', 'coordinator',
		'SET plan_cache_mode = force_generic_plan; '
		  . 'PREPARE null_bound(float8) AS SELECT dp_histogram(price, $1, 250, 5, 1e6) FROM sales; '
		  . 'EXECUTE null_bound(NULL)',
		'22004', 'dp_histogram with a NULL bound as a bind parameter (generic plan)');
	refused_uncharged('analyst', 'coordinator',
		'SET plan_cache_mode = force_generic_plan; '
		  . 'PREPARE null_sum_bound(float8) AS SELECT dp_sum(amount, 0, $1, 1e6), dp_count_distinct(region, 1e6) FROM sales; '
		  . 'EXECUTE null_sum_bound(NULL)',
		'0A000', 'dp_sum with a NULL bound as a bind parameter beside dp_count_distinct (generic plan)');
	refused_uncharged('analyst', 'coordinator',
		'SET plan_cache_mode = force_generic_plan; '
		  . 'PREPARE null_variance_bound(float8) AS SELECT dp_variance(amount, 0, $1, 1e6), dp_median(price, 0, 250, 1e6) FROM sales; '
		  . 'EXECUTE null_variance_bound(NULL)',
		'0A000', 'dp_variance with a NULL bound as a bind parameter beside dp_median (generic plan)');
	refused_uncharged('analyst', 'coordinator',
		'SELECT dp_histogram(price, 0, 250, 0, 1e6) FROM sales',
		'22023', 'dp_histogram with bins = 0');
	refused_uncharged('analyst', 'coordinator',
		q{SELECT dp_quantiles(price, 0, 250, '{0.5,1.5}', 1e6) FROM sales},
		'22023', 'dp_quantiles with a level above 1');
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
	# from_cache is the 9th field, before the bounds used (0.13), NULL for dp_count_ci, and how each
	# unit was bounded (0.16), NULL for a release over plain (not protected) relations.
	is($second =~ s/,t,,,,\)/,f,,,,)/gr, $first, 'the repeat is the stored answer (dp_release marked from_cache)');
	like($second, qr/,t,,,,\)/, 'from_cache is true in the repeated dp_release values');
	$cluster->sql('coordinator', 'REVOKE SELECT ON sales FROM analyst');
	refused_uncharged('analyst', 'coordinator', $panel, '42501',
		'the cached Citus panel after SELECT on the distributed table was revoked');
	$cluster->sql('coordinator', 'GRANT SELECT ON sales TO analyst');
	$cluster->sql('coordinator', q{SELECT pgdp.refresh('sales')});
	my $third = charged_once($panel, 1, 'after pgdp.refresh: a new release');
	isnt($third, $first, 'a new epoch: new noise');
}

# ---------------------------------------------------------------------------------------------
# 8. The release cache for the statistics of section 7 (sales and regions have data epochs since
#    section 6): a repeated histogram, quantiles or distinct-count panel over distributed tables is
#    the stored answer, uncharged; after pgdp.refresh a new release.
{
	my @panels = (
		[ 'dp_histogram', q{SELECT r.name, dp_histogram(s.amount, 0, 100, 4, 1.0) FROM sales s JOIN regions r USING (region)
			GROUP BY r.name ORDER BY r.name} ],
		[ 'dp_quantiles', q{SELECT region, dp_quantiles(price, 0, 250, '{0.1,0.5,0.9}', 1.0) FROM sales GROUP BY region ORDER BY region} ],
		[ 'NULL-bound dp_quantiles', q{SELECT region, dp_quantiles(price, NULL, NULL, '{0.1,0.5,0.9}', 1.0) FROM sales GROUP BY region ORDER BY region} ],
		[ 'dp_count_distinct', q{SELECT region, dp_count_distinct(customer, 1.0) FROM sales GROUP BY region ORDER BY region} ]);
	my %first;
	for my $panel (@panels)
	{
		my ($name, $sql) = @$panel;
		$first{$name} = charged_once($sql, 1, "a Citus $name panel, first run");
		is(charged_once($sql, 0, "the same $name panel again"), $first{$name},
			"the repeated $name panel is the stored answer");
	}
	$cluster->sql('coordinator', q{SELECT pgdp.refresh('sales')});
	my $again = charged_once($panels[0][1], 1, 'the dp_histogram panel after pgdp.refresh');
	isnt($again, $first{dp_histogram}, 'a new epoch: a new histogram release');
}

# ---------------------------------------------------------------------------------------------
# 9. dp_sum, dp_mean, dp_variance and dp_stddev (and their *_ci forms) with NULL bounds (0.14):
#    the workers group the rows by their log bin (pgdp.log_bin) and count and sum their exact
#    units there; the coordinator estimates the bounds and releases as on one node. At epsilon 1e9
#    each release equals the same query on a local copy of the rows and PostgreSQL's own
#    sum/avg/var_pop/stddev_pop of the values clamped to the bounds the *_ci form reports; one
#    ledger row per release on the coordinator, none on the workers; noise at epsilon 1; what
#    stays refused is refused before any charge.
{
	$cluster->sql(
		'coordinator', q{
CREATE TABLE measures (id bigint, k int, grp int, v int, x float8, n numeric);
SELECT create_distributed_table('measures', 'k');
INSERT INTO measures
SELECT g, g % 8, g % 3, g % 1000 - 300, (g % 997) * 1.37 - 100, (g % 500) * 2.5
FROM generate_series(1, 20000) g;
INSERT INTO measures VALUES (20001, 1, 1, NULL, NULL, NULL), (20002, 2, 2, NULL, 'NaN', 'NaN');
CREATE TABLE measures_local AS SELECT * FROM measures;
GRANT SELECT ON measures, measures_local TO analyst;
});
	my $local_count = $cluster->sql('coordinator',
		q{SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = 'measures_local'::regclass});
	is($local_count, '0', 'measures_local is a plain local table');

	# Lines of '|'-separated fields: numbers within $tolerance (relative, at least absolute
	# $tolerance), anything else equal.
	my $close = sub {
		my ($got, $want, $tolerance, $name) = @_;
		my @g = split /\n/, $got;
		my @w = split /\n/, $want;
		my $ok = @g == @w && @g > 0;
		for my $i (0 .. $#w)
		{
			last unless $ok;
			my @gf = split /\|/, $g[$i], -1;
			my @wf = split /\|/, $w[$i], -1;
			$ok = @gf == @wf;
			for my $j (0 .. $#wf)
			{
				last unless $ok;
				my ($a, $b) = ($gf[$j], $wf[$j]);
				if ($a =~ /^-?[\d.]+(?:e[-+]?\d+)?$/i && $b =~ /^-?[\d.]+(?:e[-+]?\d+)?$/i)
				{
					my $scale = abs($b) > 1 ? abs($b) : 1;
					$ok = abs($a - $b) <= $tolerance * $scale;
				}
				else
				{
					$ok = $a eq $b;
				}
			}
		}
		ok($ok, $name) or diag("got:\n$got\nwant:\n$want");
	};

	# Runs $template with TABLE replaced by measures (charged: $count ledger rows, one per call,
	# all on the coordinator) and by measures_local; checks both against $reference per output
	# line, its {KEY} replaced by the line's first field and each other {NAME} by the field
	# $bounds{NAME} (the bounds a *_ci form reported). PostgreSQL's GREATEST skips NULLs, so the
	# references keep NULL values out themselves.
	my $check = sub {
		my ($name, $template, $count, $reference, $tolerance, %bounds) = @_;
		(my $distributed = $template) =~ s/TABLE/measures/g;
		(my $local = $template) =~ s/TABLE/measures_local/g;
		my $released = charged_once($distributed, $count, $name);
		my $on_one_node = as_analyst($local);
		$close->($released, $on_one_node, $tolerance, "$name: the Citus release equals the local table's");
		# The reference per output line, with that line's reported bounds.
		my @lines = split /\n/, $released;
		my @expected;
		for my $line (@lines)
		{
			my @f = split /\|/, $line, -1;
			(my $sql = $reference) =~ s/\{KEY\}/$f[0]/g;
			$sql =~ s/\{(\w+)\}/$f[$bounds{$1}]/g;
			push @expected, $cluster->sql('coordinator', $sql);
		}
		$close->($released, join("\n", @expected), $tolerance,
			"$name: PostgreSQL's own statistic of the values clamped to the reported bounds");
		return $released;
	};

	# Whole table, int values: dp_sum, dp_mean and dp_sum_ci of one value share the bin key.
	$check->(
		'NULL bounds, whole table, int',
		q{SELECT s, m, (r).value, (r).lower_bound, (r).upper_bound
		  FROM (SELECT dp_sum(v, NULL, NULL, 1e9), dp_mean(v, NULL, NULL, 1e9), dp_sum_ci(v, NULL, NULL, 1e9, 0.05)
		        FROM TABLE) x(s, m, r)},
		3,
		q{SELECT sum(c), avg(c), sum(c), {L}, {U} FROM (SELECT least(greatest(v, {L}), {U}) AS c FROM measures_local WHERE v IS NOT NULL) q},
		1e-6, L => 3, U => 4);
	# Grouped by the distribution column: dp_variance, dp_stddev and dp_variance_ci of a float8
	# value (a NaN and a NULL row: no rows).
	$check->(
		'NULL bounds, dp_variance and dp_stddev grouped by the distribution column, float8',
		q{SELECT k, a, b, (r).value, (r).lower_bound, (r).upper_bound
		  FROM (SELECT k, dp_variance(x, NULL, NULL, 1e9), dp_stddev(x, NULL, NULL, 1e9),
		               dp_variance_ci(x, NULL, NULL, 1e9, 0.05) FROM TABLE GROUP BY k) s(k, a, b, r) ORDER BY k},
		3,
		q{SELECT {KEY}, var_pop(c), stddev_pop(c), var_pop(c), {L}, {U}
		  FROM (SELECT least(greatest(x, {L}), {U}) AS c FROM measures_local WHERE k = {KEY} AND x <> 'NaN') q},
		1e-6, L => 4, U => 5);
	# Grouped by another column, with FILTER, beside bounded calls and dp_count (their totals
	# summed over the bins' rows): dp_mean_ci and dp_stddev_ci of the same value share the key.
	$check->(
		'NULL bounds grouped by another column, FILTER, beside bounded calls',
		q{SELECT grp, s, bounded, c, round((m).value::numeric, 6), (m).lower_bound, (m).upper_bound,
		         round((d).value::numeric, 6), (d).lower_bound, (d).upper_bound
		  FROM (SELECT grp, dp_sum(v, NULL, NULL, 1e9) FILTER (WHERE id % 2 = 0), dp_sum(v, 0, 500, 1e9), dp_count(1e9),
		               dp_mean_ci(v, NULL, NULL, 1e9, 0.05) FILTER (WHERE id % 2 = 0),
		               dp_stddev_ci(v, NULL, NULL, 1e9, 0.05)
		        FROM TABLE GROUP BY grp) x(grp, s, bounded, c, m, d) ORDER BY grp},
		5,
		q{SELECT {KEY}, sum(least(greatest(v, {L}), {U})) FILTER (WHERE id % 2 = 0),
		         sum(least(greatest(v, 0), 500)), (SELECT count(*) FROM measures_local WHERE grp = {KEY}),
		         round(avg(least(greatest(v, {L}), {U})) FILTER (WHERE id % 2 = 0), 6), {L}, {U},
		         round(stddev_pop(least(greatest(v, {L2}), {U2}))::numeric, 6), {L2}, {U2}
		  FROM measures_local WHERE grp = {KEY} AND v IS NOT NULL},
		1e-6, L => 5, U => 6, L2 => 8, U2 => 9);
	# Bounds left out (0.14): the planner rewrites dp_sum(v, epsilon) and dp_mean(v, epsilon, delta)
	# into the NULL-bound calls, which share the bin key with the NULL-bound dp_sum_ci.
	$check->(
		'bounds omitted, whole table, int',
		q{SELECT s, m, (r).value, (r).lower_bound, (r).upper_bound
		  FROM (SELECT dp_sum(v, 1e9), dp_mean(v, 1e9, 1e-6), dp_sum_ci(v, NULL, NULL, 1e9, 0.05)
		        FROM TABLE) x(s, m, r)},
		3,
		q{SELECT sum(c), avg(c), sum(c), {L}, {U} FROM (SELECT least(greatest(v, {L}), {U}) AS c FROM measures_local WHERE v IS NOT NULL) q},
		1e-6, L => 3, U => 4);
	# ... and dp_median(x, epsilon) into the NULL-bound median (the log-linear leaves): within
	# 2^-8 of percentile_disc.
	$check->(
		'bounds omitted, dp_median grouped by another column, float8',
		q{SELECT grp, dp_median(x, 1e9) FROM TABLE GROUP BY grp ORDER BY grp},
		1,
		q{SELECT {KEY}, percentile_disc(0.5) WITHIN GROUP (ORDER BY x) FROM measures_local WHERE grp = {KEY} AND x <> 'NaN'},
		1.0 / 256);
	# One bound given (the rows clamped to it, the other estimated), numeric and real values.
	$check->(
		'one bound given, numeric',
		q{SELECT round(m, 6), (r).value, (r).lower_bound, (r).upper_bound
		  FROM (SELECT dp_mean(n, 10, NULL, 1e9), dp_sum_ci(n, 10, NULL, 1e9, 0.05) FROM TABLE) x(m, r)},
		2,
		q{SELECT round(avg(c), 6), sum(c), {L}, {U}
		  FROM (SELECT least(greatest(n, {L}), {U}) AS c FROM measures_local WHERE n <> 'NaN') q},
		1e-6, L => 2, U => 3);
	$check->(
		'one bound given, dp_variance_ci of a real value',
		q{SELECT (r).value, (r).lower_bound, (r).upper_bound
		  FROM (SELECT dp_variance_ci(x::real, NULL, 600, 1e9, 0.05) FROM TABLE) x(r)},
		1,
		q{SELECT var_pop(c), {L}, {U}
		  FROM (SELECT least(greatest(x::real::float8, {L}), {U}) AS c FROM measures_local WHERE x <> 'NaN') q},
		1e-6, L => 1, U => 2);
	# Bind parameters under a generic plan: NULL bounds, one NULL, and both given (the same plan).
	{
		my $prepare = 'SET plan_cache_mode = force_generic_plan; '
		  . 'PREPARE nb(float8, float8) AS SELECT (r).value, (r).lower_bound, (r).upper_bound '
		  . 'FROM (SELECT dp_mean_ci(x, $1, $2, 1e9, 0.05) FROM TABLE) s(r); ';
		for my $arguments ('NULL, NULL', '0, NULL', '-50, 700')
		{
			$check->(
				"bind parameters ($arguments) under a generic plan",
				$prepare . "EXECUTE nb($arguments); EXECUTE nb($arguments)",
				2,
				q{SELECT avg(c), {L}, {U}
				  FROM (SELECT least(greatest(x, {L}), {U}) AS c FROM measures_local WHERE x <> 'NaN') q},
				1e-6, L => 1, U => 2);
		}
		my $bounds = as_analyst($prepare =~ s/TABLE/measures/r . 'EXECUTE nb(-50, 700)');
		like($bounds, qr/\|-50\|700$/, 'bounds given as bind parameters are used as given');
	}
	# Noise at epsilon 1: two releases differ from each other and from the exact clamped sum.
	{
		my $sql = q{SELECT (r).value, (r).lower_bound, (r).upper_bound FROM (SELECT dp_sum_ci(v, NULL, NULL, 1, 0.05) FROM measures) x(r)};
		my @first = split /\|/, charged_once($sql, 1, 'NULL bounds at epsilon 1');
		my @second = split /\|/, charged_once($sql, 1, 'NULL bounds at epsilon 1, again');
		my $exact = $cluster->sql('coordinator',
			"SELECT sum(least(greatest(v, $first[1]), $first[2])) FROM measures_local");
		isnt($first[0], $second[0], 'epsilon 1: two releases differ');
		isnt($first[0], $exact, 'epsilon 1: the release is not the exact clamped sum');
		ok(abs($first[0] - $exact) < 1e5, 'epsilon 1: the release is near the exact clamped sum')
		  or diag("released $first[0], exact $exact");
	}
	# Refused before any charge: a NULL-bound call beside a histogram, quantile or distinct count
	# (one state key per level), NULL-bound calls of different values or given bounds, the same
	# with a NULL bind parameter beside a histogram, and a given bound dp_variance cannot bin.
	refused_uncharged('analyst', 'coordinator',
		'SELECT dp_sum(v, NULL, NULL, 1e6), dp_histogram(x, 0, 100, 4, 1e6) FROM measures',
		'0A000', 'a NULL-bound dp_sum beside dp_histogram');
	refused_uncharged('analyst', 'coordinator',
		'SELECT dp_count_distinct(v, 1e6), dp_variance(x, NULL, 100, 1e6) FROM measures GROUP BY grp',
		'0A000', 'a NULL-bound dp_variance beside dp_count_distinct');
	refused_uncharged('analyst', 'coordinator',
		'SELECT dp_sum(v, NULL, NULL, 1e6), dp_mean(x, NULL, NULL, 1e6) FROM measures',
		'0A000', 'NULL-bound calls of two values in one level');
	refused_uncharged('analyst', 'coordinator',
		'SELECT dp_sum(v, NULL, NULL, 1e6), dp_mean(v, 0, NULL, 1e6) FROM measures',
		'0A000', 'NULL-bound calls of one value with different given bounds');
	refused_uncharged('analyst', 'coordinator',
		'SET plan_cache_mode = force_generic_plan; '
		  . 'PREPARE nb_histogram(float8) AS SELECT dp_sum(v, 0, $1, 1e6), dp_histogram(x, 0, 100, 4, 1e6) FROM measures; '
		  . 'EXECUTE nb_histogram(NULL)',
		'0A000', 'a NULL bind parameter beside dp_histogram (generic plan)');
	refused_uncharged('analyst', 'coordinator',
		'SELECT dp_variance(x, 1e-12, NULL, 1e6) FROM measures',
		'22023', 'dp_variance with a given bound off the bins\' grid');
	# Bounds as bind parameters of two values in one level: one bin key cannot serve both, so
	# neither bins; given bounds work as before 0.14, a NULL is refused before any charge.
	{
		my $prepare = 'SET plan_cache_mode = force_generic_plan; '
		  . 'PREPARE two_values(float8) AS SELECT dp_sum(v, 0, $1, 1e9), round(dp_mean(x, 0, $1, 1e9)::numeric, 6) FROM measures; ';
		is(charged_once($prepare . 'EXECUTE two_values(500)', 2, 'bind parameter bounds of two values'),
			$cluster->sql('coordinator',
				q{SELECT (SELECT sum(least(greatest(v, 0), 500)) FROM measures_local WHERE v IS NOT NULL),
				         (SELECT round(avg(least(greatest(x, 0), 500))::numeric, 6) FROM measures_local WHERE x <> 'NaN')}),
			'bind parameter bounds of two values in one level: exact');
		refused_uncharged('analyst', 'coordinator', $prepare . 'EXECUTE two_values(NULL)',
			'0A000', 'a NULL bind parameter for calls of two values in one level');
	}
	# A bounded bind parameter beside dp_histogram still works (no bins then).
	{
		my $out = charged_once(
			'SET plan_cache_mode = force_generic_plan; '
			  . 'PREPARE b_histogram(float8) AS SELECT dp_sum(v, 0, $1, 1e9), dp_count(1e9) FROM measures; '
			  . 'PREPARE c_histogram(float8) AS SELECT dp_sum(v, 0, $1, 1e9), dp_histogram(x, 0, 100, 4, 1e9) IS NOT NULL FROM measures; '
			  . 'EXECUTE b_histogram(500); EXECUTE c_histogram(500)',
			4, 'bounded bind parameters, with and without dp_histogram beside');
		my $exact = $cluster->sql('coordinator',
			'SELECT sum(least(greatest(v, 0), 500)), count(*) FROM measures_local');
		my ($sum) = split /\|/, $exact;
		is($out, "$exact\n$sum|t", 'bounded bind parameters: exact, with and without dp_histogram');
	}
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
