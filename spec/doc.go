// Package spec is the one description of an experiment: a storage stack
// (drives, RAID, a volume cache, what the host does with flushes) and a
// workload of phases, each phase a job (synthetic, in fio's vocabulary,
// or a trace replay) with optional background jobs beside it.
//
// An Experiment is plain data with YAML and JSON tags. Go code fills it;
// Parse and Load decode config files into it; Set changes one field by
// its key path, which is how every `raidsim run` flag works; Default
// reads a field's default from its `default` tag. Validate checks it
// once and reports every problem at once, each with its key path
// (phases[1].bs: 1000 is not a multiple of 512), and Plan translates it
// into the layers' own configurations (disk.Params, raid.Config,
// cache.Config, trace.Workload) with the stack's capacity and stripe
// geometry computed from the drive model and the RAID mapping, without
// building a device. The root package raidsim builds and runs a Plan.
//
// # Defaults and bounds
//
// A zero field takes its default; the `default` tag on the field says
// which. A file or flag that gives an explicit zero for such a field is
// an error rather than a silent default: `stripe_unit: 0` cannot be
// meant, so it is refused with a hint to leave the key out. Bounds are
// checked by Validate with the field's path; they keep a typo from
// allocating or running without end (at most 256 drives, 1 PiB per
// drive, 1 TiB of cache, 2^32 requests per job).
package spec
