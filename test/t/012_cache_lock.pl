# Issue 20, section 3: the release cache's first-request lock cannot be taken from SQL, and its
# wait is bounded.
#   1. ana's first request, in an open transaction, holds the lock; mallory (another analyst)
#      reads every lock of ana's backend in pg_locks and then holds, in her own session, every
#      advisory lock she can compute from them (pg_advisory_lock of the one-bigint and two-int
#      forms). ana's transaction rolls back (no entry: the next request is a first request again,
#      of the same key and so of the same lock), and ana asks again: released at once (0.8 put the
#      lock in the two-int advisory space, at the number pg_locks showed, and ana waited for as
#      long as mallory held it).
#   2. The only holder left is a concurrent identical first request of the same scope: ana's
#      second session waits at most pgdp.release_cache_lock_timeout (1 s here), then releases
#      without the cache (charged, not stored, a NOTICE says so).
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);

my $node = PostgreSQL::Test::Cluster->new('cache_lock');
$node->init;
$node->append_conf(
	'postgresql.conf', qq{
shared_preload_libraries = 'pgdp'
pgdp.release_cache_lock_timeout = '1s'
});
$node->start;
$node->safe_psql(
	'postgres', q{
CREATE EXTENSION pgdp;
CREATE TABLE panel AS SELECT g AS id, g % 5 AS region FROM generate_series(1, 1000) g;
CREATE ROLE ana LOGIN;
CREATE ROLE mallory LOGIN;
GRANT SELECT ON panel TO ana, mallory;
GRANT SELECT ON pg_locks TO mallory;
SELECT FROM pgdp.set_budget('ana', 100, 0.5);
SELECT FROM pgdp.set_budget('mallory', 100, 0.5);
SELECT FROM pgdp.set_refresh_policy('panel');
});
ok($node->poll_query_until('postgres', 'SELECT pgdp.ledger_ready()', 't'), 'ledger ready');

my $release = 'SELECT region, dp_count(1.0) > -1e9 AS ok FROM panel GROUP BY region ORDER BY region';
sub charged
{
	return $node->safe_psql('postgres', "SELECT count(*) FROM pgdp.ledger WHERE role = '$_[0]'::regrole");
}

# ---------------------------------------------------------------------------
my $ana = $node->background_psql('postgres', on_error_stop => 0, extra_params => [ '-U', 'ana' ]);
my $ana_pid = $ana->query_safe('SELECT pg_backend_pid()');
$ana->query_safe('BEGIN');
$ana->query_safe($release);
is(charged('ana'), 1, 'ana\'s first request is charged');

my $mallory = $node->background_psql('postgres', on_error_stop => 0, extra_params => [ '-U', 'mallory' ]);
my $seen = $mallory->query_safe(
	"SELECT count(*) FROM pg_locks WHERE pid = $ana_pid AND locktype = 'advisory' AND granted");
is($seen, 1, 'mallory sees the lock of ana\'s first request in pg_locks');
# Every advisory lock of ana's backend, in both forms pg_advisory_lock can take.
my $taken = $mallory->query_safe(
	qq{SELECT count(*) FROM (
	     SELECT pg_advisory_lock(classid::int, objid::int), pg_advisory_lock((classid::bigint << 32) | objid::bigint)
	     FROM pg_locks WHERE pid = $ana_pid AND locktype = 'advisory') s});
is($taken, 1, 'mallory holds every advisory lock number she saw, in both forms');
$ana->query_safe('ROLLBACK');
is($node->safe_psql('postgres', 'SELECT count(*) FROM pgdp.release_cache'), '0', 'rolled back: no entry');

# ana asks again: a first request of the same key. It must not wait for mallory.
$ana->query_safe("SET statement_timeout = '20s'");
my $start = time();
my ($out, $ret) = $ana->query($release);
my $took = time() - $start;
is($ret, 0, 'ana\'s first request again is released while mallory holds her advisory locks');
like($out, qr/^0\|t\n1\|t\n2\|t\n3\|t\n4\|t$/, 'with its rows');
cmp_ok($took, '<', 1, "without waiting (took ${took}s)");
is(charged('ana'), 2, 'charged once more');
is($node->safe_psql('postgres', 'SELECT count(*) FROM pgdp.release_cache'), '1', 'and stored');
$mallory->quit;

# ---------------------------------------------------------------------------
# The wait is bounded: a concurrent identical first request in ana's other session.
$node->safe_psql('postgres', q{SELECT pgdp.refresh('panel')});
$ana->query_safe('BEGIN');
$ana->query_safe($release);    # holds the lock of the new epoch's key
is(charged('ana'), 3, 'the new epoch\'s first request is charged');
my $ana2 = $node->background_psql('postgres', on_error_stop => 0, extra_params => [ '-U', 'ana' ]);
$start = time();
$ana2->{stderr} = '';
($out, $ret) = $ana2->query($release);
$took = time() - $start;
like($out, qr/^0\|t\n1\|t\n2\|t\n3\|t\n4\|t$/, 'the concurrent identical request is answered');
unlike($ana2->{stderr}, qr/ERROR/, 'without an error');
cmp_ok($took, '>=', 0.9, "after waiting for the lock timeout (took ${took}s)");
cmp_ok($took, '<', 10, 'no longer');
like($ana2->{stderr}, qr/NOTICE:  pgdp answered without the release cache/, 'a NOTICE says it was answered without the cache');
$ana2->{stderr} = '';
is(charged('ana'), 4, 'released and charged, not from the cache');
is($ana2->query_safe('SELECT pgdp.answered_from_cache()'), 'f', 'answered_from_cache is false');
$ana->query_safe('COMMIT');
$ana2->query_safe($release);
is($ana2->query_safe('SELECT pgdp.answered_from_cache()'), 't', 'after the first commits: from the cache');
is(charged('ana'), 4, 'nothing charged');
$ana->quit;
$ana2->quit;

$node->stop;
done_testing();
