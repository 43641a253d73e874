
# A throwaway Citus cluster for the TAP tests: one coordinator and two workers, each a
# PostgreSQL::Test::Cluster on unix sockets only, with 'citus,pgdp' preloaded and both extensions
# created, the workers added to the coordinator's metadata. Used by t/007_citus.pl.
#
#   CitusCluster::skip_unless_citus();        # plan skip_all unless Citus can run here
#   my $c = CitusCluster->new;                # start and join the three nodes
#   $c->sql('coordinator', 'SELECT 1');       # safe_psql on a node: coordinator, worker1, worker2
#   $c->create_sample_data(rows => 100000);   # sales (distributed), regions (reference), targets (local)
#   my %n = $c->charge_counts;                # pgdp.charges rows per node
#
# Citus is not in Debian: scripts/test.sh builds it (scripts/citus.sh) and exports PGDP_CITUS=1,
# or PGDP_CITUS=0 and PGDP_CITUS_REASON when it could not; the tests then skip, never pass.

package CitusCluster;

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

our @NODE_NAMES = qw(coordinator worker1 worker2);
our $SHARD_COUNT = 32;
our $REGION_COUNT = 10;

# Skips the whole test file (plan skip_all) when Citus cannot run here: scripts/test.sh said so
# (PGDP_CITUS=0), or the PostgreSQL on PATH has no citus.so.
sub skip_unless_citus
{
	if (defined $ENV{PGDP_CITUS} && $ENV{PGDP_CITUS} eq '0')
	{
		plan skip_all => 'Citus not available: '
		  . ($ENV{PGDP_CITUS_REASON} || 'scripts/test.sh set PGDP_CITUS=0');
	}
	my $pkglibdir = `pg_config --pkglibdir`;
	chomp $pkglibdir;
	if ($? != 0 || !-f "$pkglibdir/citus.so")
	{
		plan skip_all =>
		  "Citus not available: no citus.so in '$pkglibdir' (the PostgreSQL on PATH)";
	}
	return;
}

# Starts the coordinator and two workers and joins them. Settings every node gets:
#   shared_preload_libraries  citus first (Citus refuses to load otherwise), then pgdp
#   citus.local_hostname      the socket directory: with unix sockets only, the host a node uses
#                             to connect to itself (Citus's default, localhost, means TCP)
#   max_prepared_transactions two-phase commit of multi-shard writes and of metadata sync (Citus
#                             sets 2 x max_connections itself when this is 0; said explicitly)
#   max_worker_processes      the Citus maintenance daemon and pgdp's ledger workers
# Not needed (measured): citus.node_conninfo stays at its default sslmode=require, which libpq
# does not apply to unix-socket connections. Extra settings for all nodes: new(conf => "...").
sub new
{
	my ($class, %args) = @_;
	my $self = bless { nodes => {} }, $class;
	for my $name (@NODE_NAMES)
	{
		my $node = PostgreSQL::Test::Cluster->new("citus_$name");
		$node->init;
		my $socket_dir = $node->host;
		$node->append_conf(
			'postgresql.conf', qq{
shared_preload_libraries = 'citus,pgdp'
citus.local_hostname = '$socket_dir'
max_prepared_transactions = 100
max_connections = 100
max_worker_processes = 32
} . ($args{conf} // ''));
		$node->start;
		$self->{nodes}{$name} = $node;
	}
	$self->_join;
	return $self;
}

# The PostgreSQL::Test::Cluster of a node: 'coordinator', 'worker1' or 'worker2'.
sub node
{
	my ($self, $name) = @_;
	my $node = $self->{nodes}{$name} or die "no Citus node '$name'";
	return $node;
}

sub coordinator { return $_[0]->node('coordinator'); }
sub workers { return map { $_[0]->node($_) } qw(worker1 worker2); }

# Runs SQL on a node (by name) as the superuser, dies on error; returns psql -At output.
sub sql
{
	my ($self, $name, $sql, %params) = @_;
	return $self->node($name)->safe_psql('postgres', $sql, %params);
}

# Runs SQL on a node and returns (exit code, stdout, stderr) instead of dying.
sub try_sql
{
	my ($self, $name, $sql, %params) = @_;
	my ($stdout, $stderr);
	my $rc = $self->node($name)->psql(
		'postgres', $sql,
		stdout => \$stdout,
		stderr => \$stderr,
		%params);
	return ($rc, $stdout, $stderr);
}

# CREATE EXTENSION citus everywhere (Citus must exist on a worker before citus_add_node), the
# coordinator and the workers in the metadata, then CREATE EXTENSION pgdp on the coordinator
# only: Citus propagates it to the workers (checked here, so a Citus that stops doing it fails
# loudly instead of leaving workers without pgdp).
sub _join
{
	my ($self) = @_;
	for my $name (@NODE_NAMES)
	{
		$self->sql($name, 'CREATE EXTENSION citus;');
	}
	my $coordinator = $self->coordinator;
	$self->sql('coordinator',
		sprintf("SELECT citus_set_coordinator_host('%s', %d);", $coordinator->host, $coordinator->port));
	for my $worker ($self->workers)
	{
		$self->sql('coordinator',
			sprintf("SELECT citus_add_node('%s', %d);", $worker->host, $worker->port));
	}
	$self->sql('coordinator', 'CREATE EXTENSION pgdp;');
	for my $name (@NODE_NAMES)
	{
		my $version = $self->sql($name,
			"SELECT extversion FROM pg_extension WHERE extname = 'pgdp'");
		die "CREATE EXTENSION pgdp on the coordinator did not reach $name" if $version eq '';
		$self->node($name)->poll_query_until('postgres', 'SELECT pgdp.ledger_ready()', 't')
		  or die "pgdp's ledger is not ready on $name";
	}
	return;
}

# The sample data (deterministic: every value is a function of id = 1..rows):
#   sales(id, customer, region, amount, price, note)  distributed by customer, 32 shards
#       customer = id % 1000, region = id % 10, amount = id % 100, price = (id % 1000) / 4.0
#   regions(region, name)                              reference table, regions 0..9
#   targets(region, goal)                              local table on the coordinator,
#                                                      goal = 1000 * (region + 1)
# The expected aggregates are computed by expected_totals, in Perl, not read back from SQL.
sub create_sample_data
{
	my ($self, %args) = @_;
	my $rows = $args{rows} // 100000;
	$self->{rows} = $rows;
	$self->sql(
		'coordinator', qq{
CREATE TABLE sales (id bigint, customer int, region int, amount int, price float8, note text);
SELECT create_distributed_table('sales', 'customer', shard_count := $SHARD_COUNT);
INSERT INTO sales
SELECT g, g % 1000, g % $REGION_COUNT, g % 100, (g % 1000) / 4.0, 'note ' || g
FROM generate_series(1, $rows) g;
CREATE TABLE regions (region int PRIMARY KEY, name text);
SELECT create_reference_table('regions');
INSERT INTO regions SELECT r, 'region ' || r FROM generate_series(0, $REGION_COUNT - 1) r;
CREATE TABLE targets (region int, goal int);
INSERT INTO targets SELECT r, 1000 * (r + 1) FROM generate_series(0, $REGION_COUNT - 1) r;
ANALYZE sales, regions, targets;
});
	return;
}

# What the sample data must give, computed here from its definition: rows, the sum of amount,
# and per region the count and the sum of amount.
sub expected_totals
{
	my ($self) = @_;
	my $rows = $self->{rows} // die 'create_sample_data first';
	my %totals = (rows => $rows, amount => 0, region_count => {}, region_amount => {});
	for my $id (1 .. $rows)
	{
		my $region = $id % $REGION_COUNT;
		$totals{amount} += $id % 100;
		$totals{region_count}{$region} += 1;
		$totals{region_amount}{$region} += $id % 100;
	}
	return \%totals;
}

# Rows of pgdp.charges (one per charged query) on each node: { coordinator => n, worker1 => n,
# worker2 => n }. release_counts: rows of the view pgdp.ledger (one per release).
sub charge_counts
{
	my ($self) = @_;
	return map { $_ => $self->sql($_, 'SELECT count(*) FROM pgdp.charges') } @NODE_NAMES;
}

sub release_counts
{
	my ($self) = @_;
	return map { $_ => $self->sql($_, 'SELECT count(*) FROM pgdp.ledger') } @NODE_NAMES;
}

# Stops every node (PostgreSQL::Test::Cluster also does it at exit).
sub stop
{
	my ($self) = @_;
	$_->stop for values %{ $self->{nodes} };
	return;
}

1;
