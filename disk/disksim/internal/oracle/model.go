// Package oracle is raidsim's differential harness against DiskSim 4.0:
// it generates G1 disk models covering every parameter value the
// DiskSim and diskmodel manuals define, and request streams; runs them
// on DiskSim (through ../shared/tools/disksim/run-reqlog.sh) and on
// package exact; compares the two request by request; shrinks a
// disagreeing pair; and keeps the recorded corpus that raidsim's tests
// replay without DiskSim.
package oracle

import (
	"fmt"
	"strings"
)

// KV is one "Key = value" of a block, with the value as written.
type KV struct{ Key, Val string }

// Zone is one dm_layout_g1_zone's parameters, in order.
type Zone struct{ KV []KV }

// Model is a generated DiskSim model: every block's parameters in file
// order, so that it renders to one .parv (and a seek curve file).
type Model struct {
	// DriverSched and DiskSched are the two ioqueues; TopBus the
	// driver's bus; Ctlr, when not nil, a controller and DiskBus the bus
	// below it (the disk sits on TopBus when Ctlr is nil).
	Driver           []KV
	DriverSched      []KV
	TopBus, DiskBus  []KV
	Ctlr             []KV
	Disk             []KV // disksim_disk, but Model and Scheduler
	DiskSched        []KV
	Surfaces, Cyls   int
	BlockCount       int
	Mech             []KV // dm_mech_g1, the curve file named "curve.seek"
	Curve            [][2]float64
	CurveHeader      bool
	Layout           []KV // dm_layout_g1 but Zones
	Zones            []Zone
	MechBeforeLayout bool
	DiskModelFirst   bool // Model before the other disk parameters
}

// Get returns the value of key in kvs.
func Get(kvs []KV, key string) string {
	for _, kv := range kvs {
		if kv.Key == key {
			return kv.Val
		}
	}
	return ""
}

// Set sets key in kvs (appending it if absent).
func Set(kvs []KV, key, val string) []KV {
	for i := range kvs {
		if kvs[i].Key == key {
			kvs[i].Val = val
			return kvs
		}
	}
	return append(kvs, KV{key, val})
}

func block(b *strings.Builder, typ, name string, kvs []KV, indent string, extra ...string) {
	fmt.Fprintf(b, "%s %s {\n", typ, name)
	var lines []string
	for _, kv := range kvs {
		lines = append(lines, fmt.Sprintf("%s  %s = %s", indent, kv.Key, kv.Val))
	}
	lines = append(lines, extra...)
	b.WriteString(strings.Join(lines, ",\n"))
	fmt.Fprintf(b, "\n%s}", indent)
}

// Files renders m: "model.parv" and, for an extracted seek curve,
// "curve.seek".
func (m *Model) Files() map[string]string {
	var b strings.Builder
	b.WriteString(globalBlocks)
	b.WriteString("\n")
	block(&b, "disksim_iodriver", "DRV", m.Driver, "", "  Scheduler = "+inline("disksim_ioqueue", m.DriverSched, "    "))
	b.WriteString("\n\n")
	block(&b, "disksim_bus", "BUS0", m.TopBus, "")
	b.WriteString("\n\n")
	if m.Ctlr != nil {
		block(&b, "disksim_ctlr", "CTLR0", m.Ctlr, "")
		b.WriteString("\n\n")
		block(&b, "disksim_bus", "BUS1", m.DiskBus, "")
		b.WriteString("\n\n")
	}
	model := "  Model = " + m.dmDisk()
	sched := "  Scheduler = " + inline("disksim_ioqueue", m.DiskSched, "    ")
	var diskLines []string
	if m.DiskModelFirst {
		diskLines = []string{model, sched}
	}
	var tail []string
	for _, kv := range m.Disk {
		tail = append(tail, fmt.Sprintf("  %s = %s", kv.Key, kv.Val))
	}
	if !m.DiskModelFirst {
		// Model must still come before the segment size, which DiskSim
		// checks against the disk's size: put it after the first line.
		diskLines = append([]string{tail[0], model, sched}, tail[1:]...)
	} else {
		diskLines = append(diskLines, tail...)
	}
	b.WriteString("disksim_disk DISK {\n" + strings.Join(diskLines, ",\n") + "\n}\n\n")
	b.WriteString("instantiate [ bus0 ] as BUS0\n")
	if m.Ctlr != nil {
		b.WriteString("instantiate [ bus1 ] as BUS1\ninstantiate [ ctlr0 ] as CTLR0\n")
	}
	b.WriteString("instantiate [ disk0 ] as DISK\ninstantiate [ driver0 ] as DRV\n\n")
	if m.Ctlr != nil {
		b.WriteString("topology disksim_iodriver driver0 [ disksim_bus bus0 [ disksim_ctlr ctlr0 [ disksim_bus bus1 [ disksim_disk disk0 [] ] ] ] ]\n\n")
	} else {
		b.WriteString("topology disksim_iodriver driver0 [ disksim_bus bus0 [ disksim_disk disk0 [] ] ]\n\n")
	}
	b.WriteString(logorg)
	files := map[string]string{"model.parv": b.String()}
	if Get(m.Mech, "Full seek curve") != "" {
		var c strings.Builder
		if m.CurveHeader {
			fmt.Fprintf(&c, "Seek distances measured: %d\n", len(m.Curve))
		}
		for _, p := range m.Curve {
			fmt.Fprintf(&c, "%d, %.5f\n", int(p[0]), p[1])
		}
		files["curve.seek"] = c.String()
	}
	return files
}

func inline(typ string, kvs []KV, indent string) string {
	var lines []string
	for _, kv := range kvs {
		lines = append(lines, fmt.Sprintf("%s%s = %s", indent, kv.Key, kv.Val))
	}
	return typ + " {\n" + strings.Join(lines, ",\n") + "\n" + indent[:len(indent)-2] + "}"
}

func (m *Model) dmDisk() string {
	var zones []string
	for _, z := range m.Zones {
		zones = append(zones, inline("dm_layout_g1_zone", z.KV, "          "))
	}
	layout := inline("dm_layout_g1", m.Layout, "      ")
	layout = strings.TrimSuffix(layout, "\n    }") + ",\n      Zones = [\n        " + strings.Join(zones, ",\n        ") + "\n      ]\n    }"
	mech := "    Mechanical Model = " + inline("dm_mech_g1", m.Mech, "      ")
	lay := "    Layout Model = " + layout
	parts := []string{
		fmt.Sprintf("    Block count = %d", m.BlockCount),
		fmt.Sprintf("    Number of data surfaces = %d", m.Surfaces),
		fmt.Sprintf("    Number of cylinders = %d", m.Cyls),
	}
	if m.MechBeforeLayout {
		parts = append(parts, mech, lay)
	} else {
		parts = append(parts, lay, mech)
	}
	return "dm_disk {\n" + strings.Join(parts, ",\n") + "\n  }"
}

const globalBlocks = `disksim_global Global {
  Init Seed = 42,
  Real Seed = 42,
  Stat definition file = statdefs
}

disksim_stats Stats {
  iodriver stats = disksim_iodriver_stats {
    Print driver size stats = 0, Print driver locality stats = 0, Print driver blocking stats = 0,
    Print driver interference stats = 0, Print driver queue stats = 0, Print driver crit stats = 0,
    Print driver idle stats = 0, Print driver intarr stats = 0, Print driver streak stats = 0,
    Print driver stamp stats = 0, Print driver per-device stats = 0
  },
  bus stats = disksim_bus_stats { Print bus idle stats = 0, Print bus arbwait stats = 0 },
  ctlr stats = disksim_ctlr_stats {
    Print controller cache stats = 0, Print controller size stats = 0, Print controller locality stats = 0,
    Print controller blocking stats = 0, Print controller interference stats = 0, Print controller queue stats = 0,
    Print controller crit stats = 0, Print controller idle stats = 0, Print controller intarr stats = 0,
    Print controller streak stats = 0, Print controller stamp stats = 0, Print controller per-device stats = 0
  },
  device stats = disksim_device_stats {
    Print device queue stats = 0, Print device crit stats = 0, Print device idle stats = 0,
    Print device intarr stats = 0, Print device size stats = 0, Print device seek stats = 0,
    Print device latency stats = 0, Print device xfer stats = 0, Print device acctime stats = 0,
    Print device interfere stats = 0, Print device buffer stats = 0
  },
  process flow stats = disksim_pf_stats {
    Print per-process stats = 0, Print per-CPU stats = 0, Print all interrupt stats = 0, Print sleep stats = 0
  }
}
`

const logorg = `disksim_logorg org0 {
  Addressing mode = Parts,
  Distribution scheme = Asis,
  Redundancy scheme = Noredun,
  devices = [ disk0 ],
  Stripe unit = 1,
  Synch writes for safety = 0,
  Number of copies = 2,
  Copy choice on read = 6,
  RMW vs. reconstruct = 0.5,
  Parity stripe unit = 64,
  Parity rotation type = 1,
  Time stamp interval = 0.000000,
  Time stamp start time = 60000.000000,
  Time stamp stop time = 10000000000.000000,
  Time stamp file name = stamps
}
`
