// Package spec is the one description of an experiment: a storage stack
// (drives, RAID, a volume cache, what the host does with flushes) and a
// workload of phases, each phase a job (synthetic, in fio's vocabulary,
// or a trace replay) with optional background jobs beside it.
//
// An Experiment is plain data with YAML and JSON tags. Go code fills it;
// Parse and Load decode config files into it; Set changes one field by
// its key path, which is how every `raidsim run` flag works. Validate
// checks it once and reports every problem at once, each with its key
// path (phases[1].bs: 1000 is not a multiple of 512), and Plan
// translates it into the layers' own configurations (disk.Params,
// raid.Config, cache.Config, trace.Workload) with the stack's capacity
// and stripe geometry computed from the drive model and the RAID
// mapping, without building a device. The root package raidsim builds
// and runs a Plan.
//
// # One definition per key
//
// Fields holds the one definition of every key: its path, a one-line
// doc, unit, default, bounds and, for an enumeration, the names it
// takes, which are the layers' own typed values (a destage policy added
// to package cache is a name here). Everything else is rendered from
// it: the key reference docs/config-keys.md (WriteReference), the CLI's
// --help, the sweep's figure labels, the playground's controls. Validate
// takes bounds and names from it, and tests check every default against
// what the layers really use.
//
// # Defaults and bounds
//
// A zero field takes its default. A file or flag that gives an explicit
// zero for a key marked NoZero is an error rather than a silent default:
// `stripe_unit: 0` cannot be meant, so it is refused with a hint to leave
// the key out. Bounds are checked by Validate with the field's path;
// they keep a typo from allocating or running without end (at most 256
// drives, 1 PiB per drive, 1 TiB of cache, 2^32 requests per job). A
// bound that depends on the device (a queue depth: 32 over SATA, 65,535
// over NVMe) comes from the device.
package spec
