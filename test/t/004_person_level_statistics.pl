
# pgdp 0.7 (issue 10): person-level releases, statistics end to end through SQL.
#
#   1. Private group selection: `SELECT g FROM t GROUP BY g HAVING dp_groups(eps, delta, mech)` on
#      a protected relation (max_groups_contributed m) whose groups have exactly n units each.
#      The data is built from blocks of m groups x n units where every unit is in all m groups of
#      its block, so the bounding to m groups per unit keeps every row and each group's n is
#      exact. One query gives one independent keep decision per group; the keep rate is compared
#      with pi(n) from the independent 50-digit references (test/reference: partition_selection.csv
#      for the truncated geometric, partition_selection_threshold.csv for the Laplace and Gaussian
#      thresholds), for 15 (mechanism, eps, delta, m), n = 1 and three n around the 50 % point.
#   2. Single-unit groups: n = 1 is kept at the reference pi(1) (= delta' for the geometric, the
#      threshold's tail <= delta' otherwise); at delta = 0.1 and 0.3, where this is measurable, a
#      unit alone in its m groups has some group kept with probability <= delta (geometric and
#      Laplace: 1 - (1 - delta')^m = delta; Gaussian: delta/2), checked one-sided.
#   3. Noise at the bounded sensitivity: public keys (`FROM keys k LEFT JOIN t`) release every key;
#      the mean square of dp_count - n and dp_sum - exact bounded sum over 20 000 keys matches the
#      independent reference sd (test/reference/person_level_noise.csv: discrete Laplace of scale
#      m Delta / eps, Gaussian at L2 sensitivity sqrt(m) Delta), for m = 1 and m = 3, and the
#      plan's noise_sd reported by dp_count_ci / dp_sum_ci agrees with the reference.
#
# Confidence. Keep rates: an exact binomial test, failing if either tail P[X <= k] or P[X >= k]
# under the reference p is below 1e-6 (two-sided level 2e-6 per check). Noise: the mean square S
# of N = 20 000 residuals, failing if |S - sd^2| > 5 standard errors (sd^2 sqrt((kurtosis - 1)/N),
# kurtosis 6 for the Laplace, 3 for the Gaussian; normal approximation, two-sided 5.7e-7), and
# the mean residual within 5 standard errors. The false-failure probability of the whole file is
# at most the sum over its checks (printed at the end, about 3e-4). No fixed seed: the noise comes
# from pgdp's CSPRNG.
#
# Run by scripts/test.sh (as an unprivileged user, from a copy of test/t; PGDP_SRCDIR points at the
# repository for the reference files).

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use POSIX qw(lgamma expm1 log1p);
use Time::HiRes qw(time);

my $started = time;
my $srcdir = $ENV{PGDP_SRCDIR} or die "PGDP_SRCDIR must point at the pgdp repository";

# ---------------------------------------------------------------------------
# Statistics.
my $tail_alpha = 1e-6;     # per tail of a binomial check
my $z_moment = 5;          # standard errors for the noise moments
my $two_sided_z = 5.733e-7;    # P[|N(0,1)| > 5]
my $false_failure = 0;     # union bound over the checks made

# log of the binomial pmf
sub log_pmf
{
	my ($n, $k, $p) = @_;
	return lgamma($n + 1) - lgamma($k + 1) - lgamma($n - $k + 1) + $k * log($p) + ($n - $k) * log(1 - $p);
}

# P[X <= k] and P[X >= k] for X ~ Binomial(n, p), summed from k outwards until negligible.
sub binomial_tails
{
	my ($n, $k, $p) = @_;
	return ($k >= 0 ? 1 : 0, $k <= 0 ? 1 : 0) if $p <= 0;
	return ($k >= $n ? 1 : 0, 1) if $p >= 1;
	my ($lower, $upper) = (0, 0);
	for (my $j = $k; $j >= 0; $j--)
	{
		my $t = exp(log_pmf($n, $j, $p));
		$lower += $t;
		last if $j < $n * $p && $t < 1e-30 * $lower;
	}
	for (my $j = $k; $j <= $n; $j++)
	{
		my $t = exp(log_pmf($n, $j, $p));
		$upper += $t;
		last if $j > $n * $p && $t < 1e-30 * $upper;
	}
	return ($lower, $upper);
}

# Keep rate k / n against probability p: both tails >= tail_alpha.
sub check_rate
{
	my ($kept, $trials, $p, $what) = @_;
	my ($lower, $upper) = binomial_tails($trials, $kept, $p);
	$false_failure += 2 * $tail_alpha;
	ok($lower >= $tail_alpha && $upper >= $tail_alpha,
		sprintf('%s: kept %d of %d (%.5f), reference %.6g, tails %.2g / %.2g',
			$what, $kept, $trials, $kept / $trials, $p, $lower, $upper));
	return;
}

# One-sided: a rate k / n not above the bound p (P[X >= k] >= tail_alpha under p).
sub check_rate_at_most
{
	my ($kept, $trials, $p, $what) = @_;
	my (undef, $upper) = binomial_tails($trials, $kept, $p);
	$false_failure += $tail_alpha;
	ok($upper >= $tail_alpha,
		sprintf('%s: %d of %d (%.5f) <= %.6g, P[X >= k] %.2g', $what, $kept, $trials, $kept / $trials, $p, $upper));
	return;
}

# ---------------------------------------------------------------------------
# References.
sub read_csv
{
	my ($name) = @_;
	my $path = "$srcdir/test/reference/$name";
	open(my $fh, '<', $path) or die "cannot read $path: $!";
	my $header = <$fh>;
	chomp $header;
	my @columns = split /,/, $header;
	my @rows;
	while (my $line = <$fh>)
	{
		chomp $line;
		my %row;
		@row{@columns} = split /,/, $line;
		push @rows, \%row;
	}
	close $fh;
	return @rows;
}

# pi(n) per configuration "mechanism,eps,delta,m" (eps and delta as the files print them: %.17g,
# which gives back exactly the double the reference was computed at; SQL receives the same text).
my %pi;
for my $row (read_csv('partition_selection.csv'))
{
	$pi{"truncated_geometric,$row->{epsilon},$row->{delta},$row->{max_groups}"}{ $row->{n} } = $row->{pi};
}
for my $row (read_csv('partition_selection_threshold.csv'))
{
	$pi{"$row->{mechanism},$row->{epsilon},$row->{delta},$row->{max_groups}"}{ $row->{n} } = $row->{pi};
}
my %noise_sd;
for my $row (read_csv('person_level_noise.csv'))
{
	$noise_sd{"$row->{mechanism},$row->{epsilon},$row->{delta},$row->{max_groups},$row->{sensitivity}"} =
	  $row->{sd};
}

# pi(n) of a configuration: past the file's last n, 1 (the files stop at pi = 1, or above 1 - 1e-9).
sub reference_pi
{
	my ($config, $n) = @_;
	my $table = $pi{$config} or die "no reference for $config";
	return $table->{$n} if exists $table->{$n};
	my ($last) = sort { $b <=> $a } keys %$table;
	die "no reference for $config at n = $n" if $n < $last;
	return $table->{$last} > 1 - 1e-9 ? 1 : die "reference for $config stops below 1";
}

# ---------------------------------------------------------------------------
# Cluster.
my $node = PostgreSQL::Test::Cluster->new('person_level_statistics');
$node->init;
$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'pgdp'
max_worker_processes = 16
});
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION pgdp');
ok($node->poll_query_until('postgres', 'SELECT pgdp.ledger_ready()', 't'), 'ledger ready');

my $analysts = 0;
# A fresh analyst with a large budget (each configuration spends delta per query: one role each).
sub new_analyst
{
	my ($tables) = @_;
	$analysts++;
	my $role = "analyst_$analysts";
	$node->safe_psql('postgres', qq{
SET client_min_messages = warning;
CREATE ROLE $role;
GRANT SELECT ON $tables TO $role;
SELECT role FROM pgdp.set_budget('$role', 1e9, 0.99);
});
	return $role;
}

# Rows of a query run as the analyst (psql -At, '|' separated).
sub analyst_rows
{
	my ($role, $sql) = @_;
	my $out = $node->safe_psql('postgres', "SET SESSION AUTHORIZATION $role;\n$sql");
	return map { [ split /\|/ ] } grep { length } split /\n/, $out;
}

# ---------------------------------------------------------------------------
# 1 and 2: keep probabilities.
#
# Group key g = n * 10^7 + block * m + j (j < m): block b of size n has units b * n .. b * n + n - 1
# (offset per n), each in the block's m groups.
my $queries_per_config = 3;
my $groups_per_n = 1000;    # per query; >= 3000 trials per (configuration, n)
my $single_units = 2000;    # units alone in their m groups (n = 1), per query

my @selection_configs = (
	[ 'truncated_geometric', '1', '9.9999999999999995e-07', 1 ],
	[ 'truncated_geometric', '1', '9.9999999999999995e-07', 3 ],
	[ 'truncated_geometric', '0.25', '0.0001', 2 ],
	[ 'truncated_geometric', '1', '0.29999999999999999', 1 ],
	[ 'truncated_geometric', '1', '0.10000000000000001', 3 ],
	[ 'laplace', '1', '9.9999999999999995e-07', 1 ],
	[ 'laplace', '1', '1.0000000000000001e-05', 3 ],
	[ 'laplace', '0.5', '0.001', 2 ],
	[ 'laplace', '1', '0.10000000000000001', 1 ],
	[ 'laplace', '1', '0.10000000000000001', 3 ],
	[ 'gaussian', '1', '9.9999999999999995e-07', 1 ],
	[ 'gaussian', '0.5', '1.0000000000000001e-05', 3 ],
	[ 'gaussian', '0.5', '0.001', 2 ],
	[ 'gaussian', '1', '0.10000000000000001', 1 ],
	[ 'gaussian', '1', '0.10000000000000001', 3 ],
);

# n = 1, the largest n with pi <= 0.25, the n with pi closest to 1/2, the least n with pi >= 0.8.
sub interesting_n
{
	my ($config) = @_;
	my $table = $pi{$config} or die "no reference for $config";
	my @ns = sort { $a <=> $b } keys %$table;
	my ($low, $half, $high);
	for my $n (@ns)
	{
		my $p = $table->{$n};
		$low = $n if $p <= 0.25;
		$half = $n if !defined $half || abs($p - 0.5) < abs($table->{$half} - 0.5);
		$high = $n if !defined $high && $p >= 0.8;
	}
	my %seen;
	return grep { defined $_ && !$seen{$_}++ } (1, $low, $half, $high);
}

my $config_index = 0;
for my $c (@selection_configs)
{
	my ($mechanism, $eps, $delta, $m) = @$c;
	my $config = "$mechanism,$eps,$delta,$m";
	$config_index++;
	my $table = "sel_$config_index";
	my @ns = interesting_n($config);
	my $inserts = '';
	my $unit_offset = 0;
	for my $n (@ns)
	{
		my $blocks = $n == 1 ? $single_units : int(($groups_per_n + $m - 1) / $m);
		$inserts .= "INSERT INTO $table SELECT $n * 10000000 + b * $m + j, $unit_offset + b * $n + i "
		  . "FROM generate_series(0, $blocks - 1) b, generate_series(0, $n - 1) i, generate_series(0, $m - 1) j;\n";
		$unit_offset += $blocks * $n;
	}
	$node->safe_psql('postgres', qq{
SET client_min_messages = warning;
CREATE TABLE $table (g bigint, u bigint);
$inserts
ANALYZE $table;
SELECT relation FROM pgdp.protect('$table', 'u', max_groups_contributed => $m);
});
	# The design: every group has exactly n units, every unit is in exactly m groups.
	my $shape = $node->safe_psql('postgres', qq{
SELECT bool_and(units = g / 10000000) FROM (SELECT g, count(DISTINCT u) AS units FROM $table GROUP BY g) s;
SELECT bool_and(groups = $m) FROM (SELECT u, count(DISTINCT g) AS groups FROM $table GROUP BY u) s;
});
	is($shape, "t\nt", "$config: groups of exactly n units, units in exactly m groups");
	my $role = new_analyst($table);

	my (%kept, %trials, %unit_any, $unit_trials);
	for my $q (1 .. $queries_per_config)
	{
		my @rows = analyst_rows($role, "SELECT g FROM $table GROUP BY g HAVING dp_groups($eps, $delta, '$mechanism');");
		my %unit_kept;
		for my $row (@rows)
		{
			my $g = $row->[0];
			my $n = int($g / 10000000);
			$kept{$n}++;
			$unit_kept{ int(($g % 10000000) / $m) } = 1 if $n == 1;
		}
		$unit_any{count} += scalar keys %unit_kept;
		$unit_trials += $single_units;
		for my $n (@ns)
		{
			$trials{$n} += $n == 1 ? $single_units * $m : int(($groups_per_n + $m - 1) / $m) * $m;
		}
	}
	for my $n (@ns)
	{
		check_rate($kept{$n} // 0, $trials{$n}, reference_pi($config, $n), "$config n=$n");
	}
	# A unit alone in its m groups: some group kept with probability 1 - (1 - pi(1))^m, at most
	# delta (geometric, Laplace) or delta/2 (Gaussian: the other half is the noise's).
	my $pi1 = reference_pi($config, 1);
	my $any = -expm1($m * log1p(-$pi1));
	if ($m > 1)
	{
		check_rate($unit_any{count}, $unit_trials, $any, "$config: a single unit has some of its $m groups kept");
	}
	my $bound = $mechanism eq 'gaussian' ? $delta / 2 : $delta;
	ok($any <= $bound * (1 + 1e-12), "$config: reference P[a single unit's group kept] $any <= $bound");
	if ($delta >= 0.05)
	{
		check_rate_at_most($unit_any{count}, $unit_trials, $bound, "$config: single unit kept at most with delta");
	}
	note(sprintf('%s: %.1f s so far', $config, time - $started));
}

# ---------------------------------------------------------------------------
# 3. Noise variance at the bounded sensitivity, with public keys.
#
# keys: 20 000 public keys; 19 000 of them are groups of 2 units (blocks of m groups x 2 units,
# every unit in all m groups of its block), 1 000 are empty (noise on 0). Each unit has two rows
# per group with values 2 and 4: its sum 6 is clamped to upper = 5 (Delta = 5).
my $keys = 20000;
my $filled = 19000;
for my $m (1, 3)
{
	my $table = "noise_$m";
	my $blocks = int($filled / $m);
	$node->safe_psql('postgres', qq{
SET client_min_messages = warning;
CREATE TABLE keys_$m AS SELECT g::bigint AS g FROM generate_series(0, $keys - 1) g;
SELECT pgdp.declare_public('keys_$m');
CREATE TABLE $table (g bigint, u bigint, v int);
INSERT INTO $table SELECT b * $m + j, b * 2 + i, v
FROM generate_series(0, $blocks - 1) b, generate_series(0, 1) i, generate_series(0, $m - 1) j, (VALUES (2), (4)) x(v);
ANALYZE $table;
SELECT relation FROM pgdp.protect('$table', 'u', max_groups_contributed => $m);
});
	my $filled_groups = $blocks * $m;
	for my $mechanism ('laplace', 'gaussian')
	{
		my $role = new_analyst("keys_$m, $table");
		my ($count_args, $sum_args) =
		  $mechanism eq 'laplace'
		  ? ('0.5', '1')
		  : ("0.5, 1e-5, 'gaussian'", "1, 1e-5, 'gaussian'");
		my @rows = analyst_rows($role, qq{
SELECT k.g, dp_count($count_args), dp_sum(v, 0, 5, $sum_args),
       (dp_count_ci($count_args, 0.05)).noise_sd, (dp_sum_ci(v, 0, 5, $sum_args, 0.05)).noise_sd
FROM keys_$m k LEFT JOIN $table USING (g) GROUP BY k.g;
});
		is(scalar @rows, $keys, "$mechanism m=$m: every public key released");
		my $delta_text = $mechanism eq 'laplace' ? '0' : '1.0000000000000001e-05';
		my %ref = (
			count => $noise_sd{"$mechanism,0.5,$delta_text,$m,1"},
			sum => $noise_sd{"$mechanism,1,$delta_text,$m,5"});
		my %plan_sd = (count => $rows[0][3], sum => $rows[0][4]);
		my %residuals = (count => [], sum => []);
		for my $row (@rows)
		{
			my ($g, $count, $sum, $count_sd, $sum_sd) = @$row;
			my $units = $g < $filled_groups ? 2 : 0;
			push @{ $residuals{count} }, $count - $units;
			push @{ $residuals{sum} }, $sum - 5 * $units;
			die "noise_sd differs between groups" if $count_sd != $plan_sd{count} || $sum_sd != $plan_sd{sum};
		}
		my $kurtosis = $mechanism eq 'laplace' ? 6 : 3;
		for my $what ('count', 'sum')
		{
			my $sd = $ref{$what} or die "no noise reference for $mechanism $what m=$m";
			my @x = @{ $residuals{$what} };
			my $n = scalar @x;
			my ($s1, $s2) = (0, 0);
			for my $v (@x) { $s1 += $v; $s2 += $v * $v; }
			my $mean = $s1 / $n;
			my $square = $s2 / $n;
			my $var = $sd * $sd;
			my $se = $var * sqrt(($kurtosis - 1) / $n);
			$false_failure += 3 * $two_sided_z;    # the three moment checks below
			ok(abs($mean) <= $z_moment * $sd / sqrt($n),
				sprintf('%s m=%d dp_%s: mean residual %.4f within %d se (%.4f)', $mechanism, $m, $what, $mean,
					$z_moment, $sd / sqrt($n)));
			ok(abs($square - $var) <= $z_moment * $se,
				sprintf('%s m=%d dp_%s: mean square %.4f, reference %.4f (sd %.6f), within %d se (%.4f)',
					$mechanism, $m, $what, $square, $var, $sd, $z_moment, $se));
			# The plan's sd: the Laplace plan reports the continuous 2 t^2, above the discrete
			# variance by less than 1/6 (grid 1); the Gaussian's sigma is the reference's up to the
			# calibration's 2^-16 search step.
			my $plan = $plan_sd{$what};
			if ($mechanism eq 'laplace')
			{
				ok($plan * $plan >= $var && $plan * $plan - $var <= 1 / 6 + 1e-9,
					sprintf('%s m=%d dp_%s: plan noise_sd %.9g, reference %.9g', $mechanism, $m, $what, $plan, $sd));
			}
			else
			{
				ok(abs($plan / $sd - 1) <= 1e-4,
					sprintf('%s m=%d dp_%s: plan noise_sd %.9g, reference %.9g', $mechanism, $m, $what, $plan, $sd));
			}
			ok(abs($square - $plan * $plan) <= $z_moment * $se + 1 / 6,
				sprintf('%s m=%d dp_%s: mean square %.4f against the plan\'s %.4f', $mechanism, $m, $what, $square,
					$plan * $plan));
		}
	}
}

diag(sprintf('false-failure probability of this file <= %.2g (union bound); %.1f s', $false_failure, time - $started));
$node->stop;
done_testing();
