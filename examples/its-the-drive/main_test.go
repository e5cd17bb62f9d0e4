package main

import (
	"github.com/raidsim/raidsim/examples/internal/articles"
	"testing"
)

// TestItsTheDrive runs the example at reduced sizes and checks every
// effect seed 004 reports, and the sustained rates within 25%.
func TestItsTheDrive(t *testing.T) {
	r, err := run(0.25)
	if err != nil {
		t.Fatal(err)
	}
	for i, z := range zoneDrives {
		s := r.Zones[i]
		// Drive physics within 25% of the article.
		articles.Within(t, z.label+" sustained max", s.Outer, z.articleMax, 0.25)
		articles.Within(t, z.label+" sustained min", s.Inner, z.articleMin, 0.25)
		articles.Within(t, z.label+" buffer re-read against the 300 MB/s interface", s.BufferHit, articleInterface, 0.25)
		// The sustained rate falls from the outer to the inner zone.
		articles.More(t, z.label+" outer vs inner", s.Outer, 1.5*s.Inner)
		// The interface is not the bound: the buffer delivers far more
		// than the platters.
		articles.More(t, z.label+" buffer re-read vs outer media rate", s.BufferHit, 2.5*s.Outer)
		// A single track is faster than a sustained stretch (switches).
		articles.More(t, z.label+" one-track vs sustained", s.OneTrack, s.Outer)
	}
	// The buffer's effect shrinks with transfer size; a transfer larger
	// than the buffer is media bound.
	outer := r.Zones[0].Outer
	for i, p := range r.Sizes {
		if i > 0 && p.MBs > r.Sizes[i-1].MBs*1.001 {
			t.Errorf("transfer %d B at %.1f MB/s is faster than the smaller one before (%.1f)", p.Size, p.MBs, r.Sizes[i-1].MBs)
		}
		if !p.Media {
			articles.More(t, "transfer within the buffer vs media rate", p.MBs, 2.5*outer)
		}
	}
	last := r.Sizes[len(r.Sizes)-1]
	if last.MBs > 1.15*outer || last.MBs < 0.85*r.Zones[0].Inner {
		t.Errorf("a %d B transfer runs at %.1f MB/s, not media bound (outer %.1f MB/s)", last.Size, last.MBs, outer)
	}
	// NAS: throughput falls once files exceed the memory, for every
	// stack; RAID 5 with unaligned flushes pays its write cost and falls
	// below one drive; whole-stripe flushing removes that cost.
	small, big := r.NAS[0], r.NAS[len(r.NAS)-1]
	if small.Size > r.NASCache || big.Size <= r.NASCache {
		t.Fatalf("file sizes %d..%d do not straddle the %d B memory", small.Size, big.Size, r.NASCache)
	}
	for i, name := range r.Stacks {
		articles.More(t, name+" write: file in memory vs larger", small.Write[i], 3*big.Write[i])
		articles.More(t, name+" read: file in memory vs larger", small.Read[i], 3*big.Read[i])
	}
	articles.More(t, "large-file write: one 7K160 vs RAID 5", big.Write[nas7K160], big.Write[nasRAID5])
	articles.More(t, "large-file write: RAID 5 stripe-aligned vs not", big.Write[nasRAID5Aligned], big.Write[nasRAID5])
	t.Logf("RAID 5 at %d B: write %.1f, read %.1f MB/s (article %.1f)", big.Size, big.Write[nasRAID5], big.Read[nasRAID5], articleRAID5GB)
}

// TestNASHost: behind nas-1gb nothing beats the gigabit wire, one drive
// reads within 25% of the article's ~66 MB/s plateau, and RAID 5 falls
// below one drive once files pass the page cache, with the NAS CPU
// busier.
func TestNASHost(t *testing.T) {
	r, err := runHost(0.125)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Points {
		for i, s := range r.Stacks {
			if p.Read[i] > wireMBs {
				t.Errorf("%s, %d B file: %.1f MB/s beats the wire", s, p.Size, p.Read[i])
			}
		}
	}
	big := r.Points[len(r.Points)-1]
	if big.Size <= r.PageCache {
		t.Fatalf("largest file %d B fits the %d B page cache", big.Size, r.PageCache)
	}
	articles.Within(t, "one 7K160 past the page cache vs the article's plateau", big.Read[1], articlePlateau, 0.25)
	articles.More(t, "one 7K160 vs RAID 5 past the page cache", 0.8*big.Read[1], big.Read[2])
	articles.More(t, "RAID 5 CPU vs one drive's past the page cache", big.CPU[2], big.CPU[1])
	small := r.Points[0]
	articles.More(t, "RAID 5: file in the page cache vs past it", small.Read[2], 1.2*big.Read[2])
	t.Logf("RAID 5 past the page cache: %.1f MB/s (article %.1f, not reproduced in size)", big.Read[2], articleRAID5GB)
}
