// Package mrc computes miss-ratio curves: the miss ratio of a cache
// against its size, for a stream of block accesses.
//
// A curve counts 4 KiB block accesses ([BlockBytes]): a request that
// touches several blocks is several accesses, and reads and writes both
// count, as in libCacheSim and the SHARDS paper's block traces. A miss
// is an access to a block the cache does not hold.
//
// # Methods
//
// [Exact] is LRU's whole curve in one pass, from stack distances
// (Mattson, Gecsei, Slutz and Traiger, "Evaluation techniques for
// storage hierarchies", IBM Systems Journal 9(2), 1970): LRU holds the
// C most recently used blocks, so an access hits a cache of C blocks
// exactly when fewer than C distinct other blocks were accessed since
// that block's previous access. The distances are counted with a
// Fenwick tree over access times, O(log n) an access.
//
// [SHARDS] is the same on a spatially hashed sample of the blocks
// (Waldspurger, Park, Garthwaite and Ahmad, "Efficient MRC construction
// with SHARDS", FAST 2015): a block is in the sample when a hash of its
// number falls below rate of the hash space, the sampled distances are
// scaled by 1/rate, and the miss count is divided by the accesses a
// sample of that rate is expected to hold (the paper's SHARDS_adj
// correction), which keeps the curve's start honest when a few hot
// blocks fall in or out of the sample. At rate 0.01 it keeps about 1%
// of the blocks' state.
//
// Other policies have no stack property; their points are simulated,
// one cache per size, with the cache package's own policies
// ([cache.BlockSim]).
package mrc
