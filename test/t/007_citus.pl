
# pgdp on Citus (issue 12): a coordinator and two workers (t/CitusCluster.pm), 'citus,pgdp'
# preloaded on each, pgdp created on the coordinator and propagated by Citus.
#
# For now the cluster itself, so that later pgdp checks stand on a known base:
#   1. sales is distributed in 32 shards, all on the two workers;
#   2. sum(amount) and count(*) over sales equal the totals of the data's definition;
#   3. a join with the reference table regions and the coordinator's local table targets, grouped
#      by region, gives the per-region totals of the data's definition;
#   4. every Citus setting is classified by pgdp.setting_channels().
# Skipped (never passed) when Citus is not available: see CitusCluster::skip_unless_citus.
#
# Run by scripts/test.sh (as an unprivileged user, from a copy of test/t, with -I for it).

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use CitusCluster;

CitusCluster::skip_unless_citus();

my $rows = 100000;
my $cluster = CitusCluster->new;
$cluster->create_sample_data(rows => $rows);
my $expected = $cluster->expected_totals;

sub check_shards
{
	is( $cluster->sql(
			'coordinator',
			q{SELECT count(*), count(DISTINCT nodeport) FROM citus_shards WHERE table_name = 'sales'::regclass}
		),
		"$CitusCluster::SHARD_COUNT|2",
		"sales has $CitusCluster::SHARD_COUNT shards on 2 nodes");
	my @worker_ports = sort map { $_->port } $cluster->workers;
	is( $cluster->sql(
			'coordinator',
			q{SELECT string_agg(DISTINCT nodeport::text, ',' ORDER BY nodeport::text) FROM citus_shards WHERE table_name = 'sales'::regclass}
		),
		join(',', @worker_ports),
		'the nodes holding the shards are the two workers');
	is( $cluster->sql('coordinator',
			q{SELECT count(*) FROM pg_dist_node WHERE isactive AND noderole = 'primary'}),
		'3', 'the coordinator and two workers are active primaries in pg_dist_node');
	return;
}

sub check_plain_aggregates
{
	is($cluster->sql('coordinator', 'SELECT sum(amount), count(*) FROM sales'),
		"$expected->{amount}|$expected->{rows}",
		'sum(amount) and count(*) over the distributed table equal the known totals');
	return;
}

sub check_joins
{
	my $want = join "\n", map {
		sprintf('region %d|%d|%d|%d', $_, 1000 * ($_ + 1),
			$expected->{region_count}{$_}, $expected->{region_amount}{$_})
	} sort { $a <=> $b } keys %{ $expected->{region_count} };
	is( $cluster->sql(
			'coordinator', q{
SELECT r.name, t.goal, count(*), sum(s.amount)
FROM sales s JOIN regions r USING (region) JOIN targets t USING (region)
GROUP BY r.region, r.name, t.goal ORDER BY r.region}),
		$want,
		'join with the reference and the local table: per-region counts and sums as defined');
	return;
}

check_shards();
check_plain_aggregates();
check_joins();

# Every setting of Citus a user or an admin can change at run time is classified by
# pgdp.setting_channels() (docs/privacy.md "Server messages and statistics"), as sql/server_messages.sql
# checks PostgreSQL's: a Citus release with a new setting fails here until it is reviewed.
is( $cluster->sql(
		'coordinator', q{SELECT string_agg(name, ', ' ORDER BY name) FROM pg_settings s
  WHERE s.name LIKE 'citus.%' AND s.context IN ('user', 'superuser')
    AND NOT EXISTS (SELECT 1 FROM pgdp.setting_channels() c WHERE s.name LIKE c.setting)}),
	'', 'every Citus setting is classified by pgdp.setting_channels()');

$cluster->stop;
done_testing();
