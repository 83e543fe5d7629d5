package agentlog

import "hash/maphash"

// What the tests of agentlog_test (which read the harness packages' logs, so cannot be this package's
// own) reach inside for.

// SharedCallsHashed is sharedCalls over recs with each call hashed by hash.
func SharedCallsHashed(recs []Record, hash func(c *Call) uint64) []string {
	for i := range recs {
		recs[i].hashes = make([]uint64, len(recs[i].calls))
		for j := range recs[i].calls {
			recs[i].hashes[j] = hash(&recs[i].calls[j])
		}
	}
	return sharedCalls(recs, defaultPrices(), nil)
}

// CallHash is the hash Scan gives a call.
func CallHash(c *Call) uint64 { return maphash.Comparable(callSeed, sharedKey(c)) }

// ShardAbove is shardAbove, for a test to set.
var ShardAbove = &shardAbove
