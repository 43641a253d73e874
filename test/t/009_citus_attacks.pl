
# Red team of issue 12 (docs/red-team/round9.md): an analyst's attacks on pgdp releases over Citus
# distributed tables, on a coordinator and two workers (t/CitusCluster.pm); 0.12 adds those on the
# Citus forms of dp_histogram, the quantiles and dp_count_distinct (worker-side functions called
# directly, forged partials, shadowed functions, views and side effects, impossible partials). What
# t/008_citus_releases.pl already covers is not repeated here. Each attempt that holds is one
# check; each break found is a check that failed before its fix.
# Skipped (never passed) when Citus is not available: see CitusCluster::skip_unless_citus.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use CitusCluster;

CitusCluster::skip_unless_citus();

my $cluster = CitusCluster->new;
$cluster->create_sample_data(rows => 2000);
my $coordinator = $cluster->coordinator;

# analyst: SELECT on the sample tables, budgets on every node (an admin who lets analysts query
# workers directly, as 008 section 5 does); viewer: SELECT on an admin's views only.
$cluster->sql(
	'coordinator', q{
CREATE ROLE analyst LOGIN;
CREATE ROLE viewer LOGIN;
CREATE ROLE dp_only LOGIN;
CREATE SCHEMA an AUTHORIZATION analyst;
GRANT SELECT ON sales, regions, targets TO analyst;
SELECT pgdp.set_budget('analyst', 1e12, 0.9), pgdp.set_budget('viewer', 1e12, 0.9), pgdp.set_budget('dp_only', 1e12, 0.9);
CREATE VIEW sales_stats WITH (security_barrier = true) AS
  SELECT region, dp_count(1e6) AS releases FROM sales GROUP BY region;
GRANT SELECT ON sales_stats TO viewer;
});
$cluster->sql($_, q{SELECT pgdp.set_budget('analyst', 1e12, 0.9)}) for qw(worker1 worker2);

sub releases_by_node
{
	my %n = $cluster->release_counts;
	return join '/', map { $n{$_} } @CitusCluster::NODE_NAMES;
}

sub delta
{
	my ($before, $after) = @_;
	my @b = split m{/}, $before;
	my @a = split m{/}, $after;
	return join '/', map { $a[$_] - $b[$_] } 0 .. $#a;
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

# Runs $sql as $role on the coordinator: (exit code, stdout, stderr, "c/w1/w2" ledger rows added).
sub attempt
{
	my ($role, $sql) = @_;
	my $before = releases_by_node();
	my ($rc, $stdout, $stderr) = try_as($role, 'coordinator', $sql);
	return ($rc, $stdout, $stderr, delta($before, releases_by_node()));
}

# One check: refused with $sqlstate and nothing charged on any node.
sub refused_uncharged
{
	my ($role, $sql, $sqlstate, $name) = @_;
	my ($rc, $stdout, $stderr, $charged) = attempt($role, $sql);
	ok($rc != 0 && $stderr =~ /$sqlstate/ && $charged eq '0/0/0',
		"$name: refused ($sqlstate), nothing charged on any node")
	  or diag("rc=$rc charged=$charged stderr=$stderr");
	return $stderr;
}

# ---------------------------------------------------------------------------------------------
# The breaks of round 9 (docs/red-team/round9.md), fixed: each check failed before its fix.

{
	my ($rc, $stdout, $stderr, $charged) = attempt('analyst',
		q{SET extra_float_digits = -15;
SELECT round(dp_sum(CASE WHEN id = 5 THEN 1000 ELSE 0 END, 0, 130, 1e6)::numeric, 3) FROM sales});
	is("$rc $stdout", '0 130.000',
		'extra_float_digits = -15: one row adds at most the upper bound charged (130) to dp_sum');
}

{
	my ($rc, $stdout, $stderr, $charged) = attempt('analyst',
		q{SET extra_float_digits = -15; SET plan_cache_mode = force_generic_plan;
PREPARE bound_as_parameter(float8) AS
  SELECT round(dp_sum(CASE WHEN id = 5 THEN 1000 ELSE 0 END, 0, $1, 1e6)::numeric, 3) FROM sales;
EXECUTE bound_as_parameter(130);});
	is("$rc $stdout", '0 130.000',
		'extra_float_digits = -15, the bound a bind parameter of a generic plan: at most 130 per row');
}

{
	$cluster->sql('coordinator', q{
CREATE FUNCTION an.renamed_release(k int) RETURNS float8 LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('application_name', 'not citus', true);
  RETURN (SELECT dp_count(1e6) FROM public.sales WHERE customer = k);
END $$;
ALTER FUNCTION an.renamed_release(int) OWNER TO analyst;
SELECT create_distributed_function('an.renamed_release(int)', 'k', colocate_with := 'sales');
});
	my ($rc, $stdout, $stderr, $charged) = attempt('analyst', 'SELECT an.renamed_release(7)');
	is($charged =~ s{^\d+/}{}r, '0/0',
		'a delegated function that renames its Citus connection: no release charged on a worker');
}

{
	my ($rc, $stdout, $stderr, $charged) = attempt('viewer', 'SELECT * FROM sales_stats');
	ok($rc == 0 || $charged eq '0/0/0',
		"an admin's DP view over a distributed table: answered, or refused uncharged ($charged)")
	  or diag($stderr);
}

# ---------------------------------------------------------------------------------------------
# Repeated evaluation: more releases than charges.
{
	my ($rc, $stdout, $stderr, $charged) = attempt('analyst',
		q{SET enable_material = off; SET enable_hashjoin = off; SET enable_mergejoin = off;
SELECT g, x.c FROM generate_series(1, 3) g LEFT JOIN (SELECT dp_count(1.0) c FROM sales) x ON true});
	ok($rc != 0 && $stderr =~ /0A000.*evaluated twice/ && $charged eq '1/0/0',
		"a plain release rescanned under a nested loop: its second evaluation refused, one charge ($charged)");
}
refused_uncharged('analyst',
	q{SET enable_material = off; SET enable_hashjoin = off; SET enable_mergejoin = off;
SELECT g, x.c FROM generate_series(1, 3) g LEFT JOIN (SELECT region, dp_count(1.0) c FROM sales GROUP BY region) x ON true},
	'0A000', 'a grouped release on a rescanned inner side');
{
	my ($rc, $stdout, $stderr, $charged) = attempt('analyst',
		q{BEGIN;
DECLARE c SCROLL CURSOR FOR SELECT dp_sum(amount, 0, 100, 1.0) FROM sales;
FETCH c; FETCH PRIOR c; FETCH FIRST c; FETCH ABSOLUTE 1 c;
COMMIT;});
	my @values = grep { /\d/ } split /\n/, $stdout;
	ok($rc == 0 && @values == 3 && $values[0] eq $values[1] && $values[1] eq $values[2] && $charged eq '1/0/0',
		"a SCROLL cursor fetched again: the same release, charged once (@values; $charged)");
}
refused_uncharged('analyst', 'DECLARE h CURSOR WITH HOLD FOR SELECT dp_count(1e6) FROM sales',
	'0A000', 'a WITH HOLD cursor over a distributed release');
{
	# force_parallel_mode was renamed debug_parallel_query in PostgreSQL 16.
	my $force_parallel = $cluster->sql('coordinator', 'SHOW server_version_num') < 160000 ? 'force_parallel_mode' : 'debug_parallel_query';
	my ($rc, $stdout, $stderr, $charged) = attempt('analyst',
		qq{SET $force_parallel = on; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
SELECT round(dp_count(1e6)::numeric), round(dp_sum(amount, 0, 100, 1e6)::numeric) FROM sales});
	my $exact = $cluster->sql('coordinator', 'SELECT count(*), sum(amount) FROM sales');
	ok(($rc == 0 && $stdout eq $exact && $charged eq '2/0/0') || ($rc != 0 && $charged eq '0/0/0'),
		"force_parallel_mode: exact at 1e6 with one charge per release, or refused uncharged ($charged)");
}

# ---------------------------------------------------------------------------------------------
# Releases that Citus would run on the workers.
$cluster->sql('coordinator', q{
CREATE FUNCTION an.release_of(k int) RETURNS float8 LANGUAGE sql AS
  $$ SELECT dp_count(1e6) FROM public.sales WHERE customer = k $$;
ALTER FUNCTION an.release_of(int) OWNER TO analyst;
SELECT create_distributed_function('an.release_of(int)', 'k', colocate_with := 'sales');
CREATE FUNCTION an.all_sales() RETURNS SETOF public.sales LANGUAGE sql STABLE AS 'SELECT * FROM public.sales';
ALTER FUNCTION an.all_sales() OWNER TO analyst;
});
refused_uncharged('analyst', 'SELECT an.release_of(7)', '0A000',
	'a release in a distributed function delegated to a worker');
{
	my ($rc, $stdout, $stderr, $charged) = attempt('analyst',
		q{SELECT success FROM run_command_on_workers($$SELECT dp_count(1e6) FROM sales$$)
UNION ALL SELECT success FROM run_command_on_shards('sales', $$SELECT dp_count(1e6) FROM %s$$)});
	ok($rc == 0 && $stdout !~ /t/ && $charged eq '0/0/0',
		"run_command_on_workers / run_command_on_shards with a release: every command refused, nothing charged ($charged)");
}
refused_uncharged('analyst', 'SELECT dp_count(1e6) FROM an.all_sales()', '0A000',
	'a SQL function returning the distributed table\'s rows (inlined after pgdp\'s rewrite)');
refused_uncharged('analyst',
	q{SELECT coord_combine_agg('dp_count(float8)'::regprocedure, NULL::cstring, NULL::float8)},
	'XX000', "Citus's coord_combine_agg on dp_count");

# A falsely IMMUTABLE bound that differs on the workers: Citus folds it on the coordinator.
{
	$cluster->sql('coordinator', q{
CREATE FUNCTION an.upper_bound() RETURNS float8 LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS
  $$ BEGIN RETURN CASE WHEN current_setting('citus.local_hostname') IS NOT NULL
                        AND (SELECT count(*) FROM pg_dist_node WHERE noderole = 'primary' AND groupid = 0
                             AND nodeport = current_setting('port')::int) = 1 THEN 100 ELSE 1e9 END; END $$;
ALTER FUNCTION an.upper_bound() OWNER TO analyst;
});
	my ($rc, $stdout, $stderr, $charged) = attempt('analyst',
		q{SELECT round(dp_sum(CASE WHEN id = 5 THEN 1e6 ELSE 0 END, 0, an.upper_bound(), 1e6)::numeric, 2) FROM sales});
	is("$rc $stdout $charged", '0 100.00 1/0/0',
		'a falsely IMMUTABLE bound that differs on the workers: clamped at the coordinator\'s value');
}

# ---------------------------------------------------------------------------------------------
# Row security, protected relations.
$cluster->sql('coordinator', q{
CREATE TABLE secured (id int, grp int, v int);
SELECT create_distributed_table('secured', 'id');
INSERT INTO secured SELECT g, g % 4, g % 50 FROM generate_series(1, 400) g;
ALTER TABLE secured ENABLE ROW LEVEL SECURITY;
CREATE POLICY only_one ON secured FOR SELECT TO analyst USING (grp = 1);
GRANT SELECT ON secured TO analyst;
CREATE TABLE people (id int, person int, v int);
SELECT create_distributed_table('people', 'person');
INSERT INTO people SELECT g, g % 40, g % 10 FROM generate_series(1, 400) g;
SELECT pgdp.protect('people', 'person', 2);
GRANT SELECT ON people TO analyst;
SELECT pgdp.grant_access('people', 'dp_only');
CREATE TABLE local_people (person int, w int);
INSERT INTO local_people SELECT p, p FROM generate_series(0, 9) p;
SELECT pgdp.protect('local_people', 'person', 1);
GRANT SELECT ON local_people TO analyst;
});
{
	my ($rc, $stdout) = attempt('analyst',
		'SELECT round(dp_count(1e6)::numeric), round(dp_sum(v, 0, 50, 1e6)::numeric) FROM secured');
	is($stdout, $cluster->sql('coordinator', 'SELECT count(*), sum(v) FROM secured WHERE grp = 1'),
		'row security on a distributed table: the release counts only the rows the policy shows');
}
refused_uncharged('analyst', 'SELECT dp_count(1e6) FROM people', '0A000',
	'a protected distributed table, analyst with SELECT');
refused_uncharged('dp_only',
	'SELECT person, dp_count(1e6) FROM people GROUP BY person HAVING dp_groups(1e6, 1e-6)', '0A000',
	'a protected distributed table, DP-only access, grouped person-level form');
refused_uncharged('analyst',
	'SELECT dp_count(1e6) FROM sales s JOIN local_people p ON p.person = s.region', '0A000',
	'a protected local table joined with a distributed table');

# ---------------------------------------------------------------------------------------------
# Values: NaN, infinities, huge numbers, NULLs, empty tables, NULL groups.
$cluster->sql('coordinator', q{
CREATE TABLE odd_values (id int, n numeric, f float8, r real);
SELECT create_distributed_table('odd_values', 'id');
INSERT INTO odd_values VALUES (1, 'NaN', 'NaN', 'NaN'), (2, 'Infinity', 'Infinity', 'Infinity'),
  (3, '-Infinity', '-Infinity', '-Infinity'), (4, 1e300, 1e300, 1e30), (5, NULL, NULL, NULL), (6, 5, 5, 5);
CREATE TABLE odd_values_local AS SELECT * FROM odd_values;
CREATE TABLE nothing (id int, v int);
SELECT create_distributed_table('nothing', 'id');
GRANT SELECT ON odd_values, odd_values_local, nothing TO analyst;
});
{
	my $query = q{SELECT round(dp_sum(n, -10, 10, 1e6)::numeric, 2), round(dp_sum(f, -10, 10, 1e6)::numeric, 2),
  round(dp_sum(r, -10, 10, 1e6)::numeric, 2), round(dp_mean(n, -10, 10, 1e6)::numeric, 2),
  round(dp_count(1e6)::numeric) FROM %s};
	my ($rc, $distributed) = attempt('analyst', sprintf($query, 'odd_values'));
	# NaN and NULL are no rows; +-Infinity and 1e300 are clamped: 10 - 10 + 10 + 5 = 15 over 4 rows.
	is($distributed, '15.00|15.00|15.00|3.75|6',
		'NaN, +-Infinity, 1e300 and NULL values: the clamped sums and mean of the single-node aggregates');
	my (undef, $local) = attempt('analyst', sprintf($query, 'odd_values_local'));
	is($distributed, $local, 'the same values in a local table give the same releases');
}
{
	my ($rc, $stdout, $stderr, $charged) = attempt('analyst',
		q{SELECT round(dp_count(1e6)::numeric), round(dp_sum(v, 0, 10, 1e6)::numeric) FROM nothing;
SELECT id, dp_count(1e6) FROM nothing GROUP BY id;});
	is("$rc $stdout $charged", '0 0|0 3/0/0',
		'an empty distributed table: whole-table releases of 0, no groups, one charge per release');
}
{
	my (undef, $stdout) = attempt('analyst',
		q{SELECT n IS NULL, round(dp_count(1e6)::numeric) FROM odd_values GROUP BY 1 ORDER BY 1});
	is($stdout, "f|5\nt|1", 'a NULL grouping key: its own group, exact at 1e6');
}

# ---------------------------------------------------------------------------------------------
# dp_histogram, the quantiles and dp_count_distinct on Citus (0.12): the workers count the rows
# per bin, leaf or hash for the coordinator's releases. No function an analyst can call returns
# such counts: pgdp.histogram_bin and pgdp.quantile_leaf are functions of one row's value, and
# the counts travel only inside pgdp.distributed_partials.
{
	my $exact_bins = $cluster->sql('coordinator',
		'SELECT width_bucket(amount, 0, 100, 10), count(*) FROM sales GROUP BY 1 ORDER BY 1');
	my ($rc, $stdout) = attempt('analyst',
		'SELECT pgdp.histogram_bin(amount, 0, 100, 10), count(*) FROM sales GROUP BY 1 ORDER BY 1');
	is("$rc\n$stdout", "0\n$exact_bins",
		'pgdp.histogram_bin called by an analyst with SELECT: width_bucket, what SELECT already shows');
}
refused_uncharged('dp_only', 'SELECT pgdp.quantile_leaf(v, 0, 10), count(*) FROM people GROUP BY 1',
	'42501', 'pgdp.quantile_leaf over a protected table by a DP-only role (no SELECT)');
{
	my (undef, $plan) = attempt('analyst',
		q{EXPLAIN (VERBOSE, COSTS OFF) SELECT region, dp_histogram(amount, 0, 100, 10, 1e6) FROM sales GROUP BY region});
	my ($text) = $plan =~ /distributed_partials\('((?:[^']|'')*)'::text\)/;
	ok(defined $text && $text =~ /state_key/, 'EXPLAIN VERBOSE shows the histogram partials query (grouped by the bin)');
	$text //= 'x';
	my $stderr = refused_uncharged('analyst',
		"SELECT * FROM pgdp.distributed_partials('$text') AS p(region int, bin int, n bigint)",
		'42501', 'pgdp.distributed_partials called with the text of a histogram partials query');
	unlike($stderr, qr/\b200\b/, 'no bin count in the refusal');
	$cluster->sql('coordinator', q{
CREATE FUNCTION an.peek(query text) RETURNS SETOF record LANGUAGE plpgsql AS
  $$ BEGIN RETURN QUERY SELECT * FROM pgdp.distributed_partials(query) AS p(region int, bin int, n bigint); END $$;
ALTER FUNCTION an.peek(text) OWNER TO analyst;
});
	refused_uncharged('analyst', "SELECT * FROM an.peek('$text') AS p(region int, bin int, n bigint)",
		'42501', 'pgdp.distributed_partials through the analyst\'s own function');
}
refused_uncharged('analyst',
	'SELECT dp_histogram(NULL::float8, 0, 100, 10, 1e6, 3, 1000000::bigint) FROM sales',
	'42883', 'a dp_histogram call with forged partial arguments (no such aggregate)');
refused_uncharged('analyst',
	q{SELECT dp_count_distinct(k, 1e6, 0, 'laplace', 7::bigint, 1000000::bigint) FROM (SELECT 1 AS k) x},
	'42883', 'a dp_count_distinct call with forged partial arguments');
{
	# The analyst's own histogram_bin and quantile_leaf, on every node, first on the search path:
	# the partials call pgdp's own functions.
	$cluster->sql('coordinator', q{
CREATE FUNCTION an.histogram_bin(value float8, lower float8, upper float8, bins int) RETURNS int
  LANGUAGE sql IMMUTABLE AS 'SELECT 1';
CREATE FUNCTION an.quantile_leaf(value float8, lower float8, upper float8) RETURNS int
  LANGUAGE sql IMMUTABLE AS 'SELECT 0';
ALTER FUNCTION an.histogram_bin(float8, float8, float8, int) OWNER TO analyst;
ALTER FUNCTION an.quantile_leaf(float8, float8, float8) OWNER TO analyst;
SELECT create_distributed_function('an.histogram_bin(float8, float8, float8, int)');
SELECT create_distributed_function('an.quantile_leaf(float8, float8, float8)');
});
	my ($rc, $stdout, $stderr, $charged) = attempt('analyst',
		q{SET search_path = an, public, pgdp;
SELECT (SELECT string_agg((b).count::text, ' ' ORDER BY (b).bin) FROM unnest(h) b), round(m::numeric, 3)
FROM (SELECT dp_histogram(amount, 0, 100, 4, 1e9) AS h, dp_median(amount, 0, 100, 1e9) AS m FROM sales) x});
	like($stderr, qr/0A000/, 'a histogram and a median of one value: two state keys, refused');
	($rc, $stdout, $stderr, $charged) = attempt('analyst',
		q{SET search_path = an, public, pgdp;
SELECT (SELECT string_agg((b).count::text, ' ' ORDER BY (b).bin) FROM unnest(h) b)
FROM (SELECT dp_histogram(amount, 0, 100, 4, 1e9) AS h FROM sales) x;
SELECT dp_quantiles(amount, 0, 100, '{0.25,0.75}', 1e9) FROM sales});
	my $bins = join ' ', 0, split(/\|/, $cluster->sql('coordinator',
		'SELECT ' . join(', ', map { "count(*) FILTER (WHERE width_bucket(amount, 0, 100, 4) = $_)" } 1 .. 4) . ' FROM sales')), 0;
	my ($histogram, $quartiles) = split /\n/, $stdout;
	my ($q1, $q3) = ($quartiles // '{0,0}') =~ /\{([^,]+),([^}]+)\}/;
	my ($p1, $p3) = split /\|/, $cluster->sql('coordinator',
		'SELECT percentile_disc(0.25) WITHIN GROUP (ORDER BY amount), percentile_disc(0.75) WITHIN GROUP (ORDER BY amount) FROM sales');
	ok($rc == 0 && $histogram eq $bins && abs($q1 - $p1) <= 100 / 65536 && abs($q3 - $p3) <= 100 / 65536 && $charged eq '2/0/0',
		"the analyst's histogram_bin and quantile_leaf first on the search path: pgdp's own are used ($charged)")
	  or diag("rc=$rc $stdout vs $bins, $p1 $p3; $stderr");
}
{
	# A view whose value is the analyst's function of the row (NaN, 1e300, -Infinity for some
	# rows), over the distributed table and over a local copy: the same releases. The function can
	# only choose each row's value, as on one node.
	$cluster->sql('coordinator', q{
CREATE FUNCTION an.weird(x int) RETURNS float8 LANGUAGE sql IMMUTABLE AS
  $$ SELECT CASE x % 10 WHEN 0 THEN 'NaN'::float8 WHEN 1 THEN 1e300 WHEN 2 THEN '-Infinity' ELSE x END $$;
ALTER FUNCTION an.weird(int) OWNER TO analyst;
SELECT create_distributed_function('an.weird(int)');
CREATE TABLE an.sales_copy AS SELECT * FROM sales;
ALTER TABLE an.sales_copy OWNER TO analyst;
CREATE VIEW an.weird_sales AS SELECT region, an.weird(amount) AS v, note FROM public.sales;
CREATE VIEW an.weird_copy AS SELECT region, an.weird(amount) AS v, note FROM an.sales_copy;
ALTER VIEW an.weird_sales OWNER TO analyst;
ALTER VIEW an.weird_copy OWNER TO analyst;
});
	my $query = q{SELECT region, (SELECT string_agg((b).count::text, ' ' ORDER BY (b).bin) FROM unnest(h) b)
FROM (SELECT region, dp_histogram(v, 0, 100, 5, 1e9) AS h FROM %1$s GROUP BY region) x ORDER BY region;
SELECT region, round(dp_median(v, 0, 100, 1e9)::numeric, 3) FROM %1$s GROUP BY region ORDER BY region;
SELECT region, dp_count_distinct(v, 1e9) FROM %1$s GROUP BY region ORDER BY region;};
	my ($rc, $distributed, $stderr, $charged) = attempt('analyst', sprintf($query, 'an.weird_sales'));
	my (undef, $local) = attempt('analyst', sprintf($query, 'an.weird_copy'));
	ok($rc == 0 && $distributed eq $local && $local ne '' && $charged eq '3/0/0',
		"an analyst's function of the row in a view over the distributed table: the releases of a local copy ($charged)")
	  or diag("$distributed\nvs\n$local\n$stderr");
}
{
	# A worker-side function with a side effect: it makes a release (refused in Citus's own
	# connections). No release or charge on a worker; the statement fails after the coordinator's
	# charge, releasing nothing.
	$cluster->sql('coordinator', q{
CREATE FUNCTION an.with_release(x float8) RETURNS float8 LANGUAGE plpgsql VOLATILE AS
  $$ BEGIN RETURN x + (SELECT dp_count(1e6) FROM generate_series(1, 3)) * 0; END $$;
ALTER FUNCTION an.with_release(float8) OWNER TO analyst;
SELECT create_distributed_function('an.with_release(float8)');
});
	my ($rc, $stdout, $stderr, $charged) = attempt('analyst',
		'SELECT dp_median(an.with_release(price), 0, 250, 1e6) FROM sales');
	ok($rc != 0 && $stdout eq '' && $charged =~ m{^[01]/0/0$},
		"a release inside the value's function, run on the workers: refused there, nothing released ($charged)")
	  or diag($stderr);
}
{
	# Values: NaN, infinities, 1e300 and NULL in a distributed table and in a local copy.
	my $query = q{SELECT (SELECT string_agg((b).count::text, ' ' ORDER BY (b).bin) FROM unnest(h) b), round(m::numeric, 3), d
FROM (SELECT dp_histogram(f, -10, 10, 4, 1e9) AS h FROM %1$s) a,
     (SELECT dp_median(f, -10, 10, 1e9) AS m FROM %1$s) b, (SELECT dp_count_distinct(n, 1e9) AS d FROM %1$s) c};
	my ($rc, $distributed, $stderr) = attempt('analyst', sprintf($query, 'odd_values'));
	my (undef, $local) = attempt('analyst', sprintf($query, 'odd_values_local'));
	# NaN and +Infinity in the overflow bin, -Infinity in the underflow bin, 5 in bin 4, 1e300 over;
	# the median of -10, 5, 10, 10 (NaN is no row); five distinct numerics (NaN is one).
	like($distributed, qr/^1 0 0 0 1 3\|/, 'odd values on Citus: the histogram counts them as width_bucket would (NaN last)');
	is($distributed, $local, 'odd values on Citus: the same histogram, median and distinct count as a local table');
	my $empty = q{SELECT (SELECT string_agg((b).count::text, ' ' ORDER BY (b).bin) FROM unnest(h) b), round(m::numeric, 3), d
FROM (SELECT dp_histogram(v, 0, 10, 3, 1e9) AS h FROM %1$s) a, (SELECT dp_count_distinct(id, 1e9) AS d FROM %1$s) c,
     (SELECT dp_median(v, 0, 10, 1e9) AS m FROM %1$s) b};
	$cluster->sql('coordinator', 'CREATE TABLE nothing_local (id int, v int); GRANT SELECT ON nothing_local TO analyst');
	my ($rc2, $none) = attempt('analyst', sprintf($empty, 'nothing'));
	my (undef, $none_local) = attempt('analyst', sprintf($empty, 'nothing_local'));
	ok($rc2 == 0 && $none eq $none_local && $none =~ /^0 0 0 0 0\|/,
		"an empty distributed table: the releases of an empty local table ($none)") or diag("$none vs $none_local");
}

# ---------------------------------------------------------------------------------------------
# Plans kept across schema changes: the outer plan reads only the partials function.
{
	$cluster->sql('coordinator', q{
CREATE TABLE an.mine (id int, v int);
ALTER TABLE an.mine OWNER TO analyst;
SELECT create_distributed_table('an.mine', 'id');
INSERT INTO an.mine SELECT g, g FROM generate_series(1, 100) g;
});
	my ($rc, $stdout, $stderr, $charged) = attempt('analyst',
		q{SET plan_cache_mode = force_generic_plan;
PREPARE p AS SELECT round(dp_sum(v, 0, 10, 1e6)::numeric) FROM an.mine;
EXECUTE p;
ALTER TABLE an.mine ALTER COLUMN v TYPE text;
EXECUTE p;});
	ok($rc != 0 && $stdout eq '955' && $stderr =~ /42883/ && $charged eq '1/0/0',
		"a prepared release after its column changed type: planned again and refused before a charge ($charged)")
	  or diag($stderr);
}

# ---------------------------------------------------------------------------------------------
# Configuration: the wrong preload order, pgdp missing on a worker.
{
	my $node = PostgreSQL::Test::Cluster->new('wrong_order');
	$node->init;
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pgdp,citus'\n");
	my $started = $node->start(fail_ok => 1);
	ok(!$started && slurp_file($node->logfile) =~ /Citus has to be loaded first/,
		"shared_preload_libraries = 'pgdp,citus': the server does not start");
}
{
	# A worker running another pgdp (here: its bin and leaf functions replaced by a superuser of
	# worker2) sends bins and leaves that do not exist: the coordinator refuses them (XX001), after
	# the charge, releasing nothing. (Who can do this owns a worker: pgdp trusts workers to compute
	# over their data; the check keeps any release within the charged sensitivity.)
	$cluster->sql('worker2', q{SET citus.enable_ddl_propagation = off;
CREATE OR REPLACE FUNCTION pgdp.histogram_bin(value float8, lower float8, upper float8, bins int) RETURNS int
  LANGUAGE sql IMMUTABLE AS 'SELECT bins + 2';
CREATE OR REPLACE FUNCTION pgdp.quantile_leaf(value float8, lower float8, upper float8) RETURNS int
  LANGUAGE sql IMMUTABLE AS 'SELECT 65536';});
	for my $call ('dp_histogram(amount, 0, 100, 10, 1e6)', 'dp_median(amount, 0, 100, 1e6)')
	{
		my ($rc, $stdout, $stderr, $charged) = attempt('analyst', "SELECT $call FROM sales");
		ok($rc != 0 && $stderr =~ /XX001/ && $stdout eq '' && $charged =~ m{^[01]/0/},
			"a worker's impossible partials for $call: refused (XX001), nothing released ($charged)")
		  or diag($stderr);
	}
	# NULL bounds (0.14): leaves of [0, 65535] that no row of the log-linear map reaches (below
	# -2^64's leaf 255; a negative leaf when lower = 0).
	for my $case ([ 100, 'dp_median(amount, NULL, NULL, 1e6)' ], [ 32767, 'dp_median(amount, 0, NULL, 1e6)' ])
	{
		my ($leaf, $call) = @$case;
		$cluster->sql('worker2', qq{SET citus.enable_ddl_propagation = off;
CREATE OR REPLACE FUNCTION pgdp.quantile_leaf(value float8, lower float8, upper float8) RETURNS int
  LANGUAGE sql IMMUTABLE AS 'SELECT $leaf';});
		my ($rc, $stdout, $stderr, $charged) = attempt('analyst', "SELECT $call FROM sales");
		ok($rc != 0 && $stderr =~ /XX001/ && $stdout eq '' && $charged =~ m{^[01]/0/},
			"a worker's leaf $leaf for $call: refused (XX001), nothing released ($charged)")
		  or diag($stderr);
	}
}
{
	# The same for the NULL-bound totals (0.14): a worker whose pgdp.binned_units sums to what no
	# rows of the bin give, then whose pgdp.log_bin names no bin: refused (XX001), nothing released.
	$cluster->sql('worker2', q{SET citus.enable_ddl_propagation = off;
CREATE OR REPLACE FUNCTION pgdp.binned_units(value float8, lower float8, upper float8) RETURNS bigint
  LANGUAGE sql IMMUTABLE AS 'SELECT 0::bigint';});
	for my $call ('dp_sum(amount, NULL, NULL, 1e6)', 'dp_variance_ci(amount, 0, NULL, 1e6, 0.05)',
		'dp_mean(price, NULL, NULL, 1e6)')
	{
		my ($rc, $stdout, $stderr, $charged) = attempt('analyst', "SELECT $call FROM sales");
		ok($rc != 0 && $stderr =~ /XX001/ && $stdout eq '' && $charged =~ m{^[01]/0/},
			"a worker's impossible bin sums for $call: refused (XX001), nothing released ($charged)")
		  or diag($stderr);
	}
	$cluster->sql('worker2', q{SET citus.enable_ddl_propagation = off;
CREATE OR REPLACE FUNCTION pgdp.log_bin(value float8, lower float8, upper float8) RETURNS int
  LANGUAGE sql IMMUTABLE AS 'SELECT 193';});
	my ($rc, $stdout, $stderr, $charged) =
	  attempt('analyst', 'SELECT region, dp_mean(amount, NULL, NULL, 1e6) FROM sales GROUP BY region');
	ok($rc != 0 && $stderr =~ /XX001/ && $stderr =~ /log bin/ && $stdout eq '' && $charged =~ m{^[01]/0/},
		"a worker's log bin outside the bins: refused (XX001), nothing released ($charged)")
	  or diag($stderr);
}
{
	# Last: worker2 has no pgdp ledger afterwards, so only the coordinator's is counted.
	$cluster->sql('worker2', q{SET citus.enable_ddl_propagation = off; DROP EXTENSION pgdp CASCADE;});
	my $ledger = 'SELECT count(*) FROM pgdp.ledger';
	my $before = $cluster->sql('coordinator', $ledger);
	my ($rc, $stdout, $stderr) =
	  try_as('analyst', 'coordinator', 'SELECT dp_sum(amount, 0, 100, 1e6) FROM sales');
	my $charged = $cluster->sql('coordinator', $ledger) - $before;
	ok($rc != 0 && $stdout eq '',
		"pgdp missing on a worker: the release fails closed (coordinator ledger rows added: $charged)")
	  or diag($stderr);
	note("pgdp missing on a worker: $stderr");
}

$cluster->stop;
done_testing();
