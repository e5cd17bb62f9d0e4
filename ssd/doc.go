// Package ssd simulates solid-state drives: a sim.Device with the same
// standing as package disk, so RAID, the volume cache, traces and sweeps
// use it the same way.
//
// The model follows the mechanisms of MQSim (Tavakkol et al., FAST 2018)
// and the DiskSim SSD extension (Agrawal et al., USENIX ATC 2008), at the
// cost of a few events per request.
//
// # Host interface and controller
//
// A request takes an NCQ tag (SATA, at most 32) or an NVMe queue slot
// (Params.QueueDepth); more wait in a host queue. The link (SATA: half
// duplex, one resource; NVMe: one per direction) carries a per-command
// protocol time plus the payload at Params.LinkRate. The controller does
// each command's processing (Params.ReadCost, WriteCost, TrimCost) one at
// a time; Params.CommandLatency is a pipelined fixed latency.
//
// # Write buffer, FLUSH and FUA
//
// With Params.WriteBuffer > 0 a write completes once its data is in the
// buffer; the buffer drains to flash, and a write that finds it full waits
// for room (counted in Stats.BufferStalls); a write of more than half the
// buffer goes straight to the dies. FLUSH completes once every
// unit buffered before it is programmed; FUA writes complete once their
// own units are programmed. Params.PowerLossProtection makes the buffer
// durable: flushes and FUA complete at once and VolatileBytes is 0. With
// no buffer every write waits for its program.
//
// # Flash back end
//
// Channels x ways x dies, each die with planes programmed together (one
// multi-plane page per program). Each die serves its reads, programs and
// erases one at a time, in order, so a read that lands behind a program
// or a garbage-collection erase waits for it: that is how GC shows in read
// latency. Data crosses the die's channel at Params.ChannelRate; GC copies
// stay on the die (copyback). MLC pages may alternate fast and slow
// programs (ProgramTime, ProgramTimeSlow).
//
// # FTL
//
// Page-level mapping at Params.MapUnit granularity (4 KiB). Its memory
// follows what a run touches, not the drive's capacity: where
// preconditioning left each unit (the base layout) is computed from a
// few numbers per die and per erase block; the forward map holds only
// the units written, moved or trimmed since (a hash table while sparse,
// about 30 bytes a unit with its reverse entry; a 256 MiB region written
// densely turns into a plain array), and the reverse map only the blocks
// opened since (4 bytes a slot, recycled on erase). No valid bits are
// kept: a slot is valid when the unit it holds still maps to it. A 160
// GB drive costs about 50 bytes per 512 KiB erase block fresh, filled
// or in steady state (TestMemoryByWhatIsTouched).
//
// Logical units are striped over the dies a multi-plane page at a time;
// each die has a host write point, a GC write point and its own free
// blocks. Garbage collection (Greedy, or CostBenefit) runs in the
// foreground when a die's free blocks fall to Params.GCLowBlocks, and in
// the background on idle dies below Params.GCBackgroundBlocks. A host
// write that opens a block collects at once in the FTL; its die pays the
// time in equal shares with the programs of that block's units (what no
// unit took a share of, when the drive goes idle), as controllers
// interleave collection with host writes: a die that paid a block's
// worth of copies at once held every write queued on it, filled the
// shared buffer and left the other dies idle (TestForegroundGCPaced). Erase
// counts give wear (no wear levelling is modelled). TRIM (sim.Trim) unmaps
// whole units; a trimmed range reads as zeroes without touching flash.
//
// A pseudo-SLC cache (Params.SLCCache) takes writes at SLCProgramTime
// until it is full, then writes go at the native ProgramTime: the cliff
// of consumer TLC drives. Idle time migrates its data to native cells
// (counted as flash writes). Its capacity cost is not modelled (dynamic
// SLC borrows free blocks).
//
// A die fills a multi-plane page before programming it, unless a request
// waits for its units (write-through, FUA), a flush waits, a write waits
// for buffer room, the drive has been idle for the idle delay, or the
// buffer is over half full (then the die that has held its part page
// longest programs it). Each logical unit lives on a fixed die (static
// allocation, as MQSim's default). Simplifications: partial-unit
// writes are charged as whole units without a read; the mapping table
// is wholly in DRAM (no mapping-cache misses).
//
// # Preconditioning
//
// Drive.Precondition puts a fresh drive in state FreshOutOfBox, Fill or
// Steady without simulated time, at once and whatever the capacity. Fill
// is the layout writing every unit in order leaves. Steady is the state
// uniform random overwrites converge to, drawn from the engine's seed:
// each die's closed blocks get valid counts from the greedy steady-state
// distribution of Desnoyers' model for the block size (blocks at level i
// in proportion to 1/i above the victims' level), a keyed permutation
// lays the die's units over them, and for cost-benefit cleaning each
// block gets the age its level implies (the two policies share the state
// under uniform writes). Each block's units are read from the layout
// when the run first overwrites one of them or garbage collection picks
// the block.
//
// Tests keep the explicit map as a reference: preconditioning writes
// every unit and every overwrite, and Steady stops once garbage
// collection runs and the write amplification of a window (an eighth of
// the capacity) is within 1% of the window's before, or reports that it
// did not converge within 8 capacities. Runs from the drawn state match
// it within 2% in write amplification, GC work, latency and IOPS
// (TestLazyMatchesExplicit).
//
// # Write amplification
//
// Stats.WriteAmplification is flash page programs (host and garbage
// collection) over host page programs, each counted once programmed.
// Under uniform random writes with greedy GC it is within 1% of
// Desnoyers' model for the block size (SYSTOR 2012;
// GreedyWriteAmplificationBlock) at 7%, 12% and 28% over-provisioning
// and at a spare factor of 28% (1.97 for 128-unit blocks)
// (TestWriteAmplificationModel, TestSteadyConverges).
//
// # Presets
//
// IntelX25MG2 ("intel-x25m-g2", SATA MLC, scenario S2's era),
// Samsung970EVOPlus ("samsung-970-evo-plus", NVMe TLC with pseudo-SLC) and
// IntelD7P5500 ("intel-d7-p5500", a 7.68 TB PCIe 4.0 TLC data centre
// drive); each field says whether it comes from the data sheet or is
// inferred, and each carries its sheet's UBER and MTBF for reliability
// estimates.
package ssd
