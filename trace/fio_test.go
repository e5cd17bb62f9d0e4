package trace

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// TestFioAcceptsLog writes a synthetic workload as fio iologs (v3 and v2)
// and replays them with the fio on the PATH onto a scratch file, checking
// fio issued exactly the reads and writes of the workload.
func TestFioAcceptsLog(t *testing.T) {
	fio, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not on the PATH (apt-get install -y fio); skipping the replay on real fio")
	}
	const capacity = 4 << 20
	w := DefaultWorkload()
	w.RW = RWRandRW
	w.RWMixRead = 60
	w.BSSplit = []BSSplitEntry{{Size: 4096, Percent: 70}, {Size: 16384, Percent: 30}}
	w.NumIOs = 300
	for _, version := range []string{"fio3", "fio2"} {
		t.Run(version, func(t *testing.T) {
			dir := t.TempDir()
			logPath := filepath.Join(dir, "workload.log")
			reads, writes := writeFioLog(t, w, capacity, version, logPath)
			scratch := filepath.Join(dir, "scratch.img")
			if err := os.WriteFile(scratch, make([]byte, capacity), 0o600); err != nil {
				t.Fatal(err)
			}
			fioReads, fioWrites := runFio(t, fio, dir, logPath, scratch)
			if fioReads != reads || fioWrites != writes {
				t.Errorf("fio issued %d reads and %d writes, the log has %d and %d", fioReads, fioWrites, reads, writes)
			}
			t.Logf("fio %s replayed %d reads and %d writes", version, reads, writes)
		})
	}
}

// writeFioLog writes workload w on a device of capacity bytes as an fio
// iolog of version ("fio3" or "fio2") at path, one request every 10 µs,
// and returns the reads and writes it wrote.
func writeFioLog(t *testing.T, w Workload, capacity int64, version, path string) (reads, writes int64) {
	t.Helper()
	gen, err := NewSynthetic(w, rand.New(rand.NewPCG(1, 2)), capacity, 512)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	tw, err := NewWriter(f, version)
	if err != nil {
		t.Fatal(err)
	}
	for i := int64(0); ; i++ {
		rec, err := gen.Next()
		if err != nil {
			break
		}
		rec.Time = sim.Time(i * int64(10*time.Microsecond)) // a short, real timeline
		if rec.Op == sim.Read {
			reads++
		} else {
			writes++
		}
		if err := tw.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return reads, writes
}

// runFio replays the iolog at logPath with fio onto scratch, in dir, and
// returns the reads and writes fio reports.
func runFio(t *testing.T, fio, dir, logPath, scratch string) (reads, writes int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, fio, "--name=replay", "--read_iolog="+logPath,
		"--replay_redirect="+scratch, "--ioengine=psync", "--output-format=json")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fio: %v\n%s", err, out)
	}
	var res struct {
		Jobs []struct {
			Error int `json:"error"`
			Read  struct {
				TotalIOs int64 `json:"total_ios"`
			} `json:"read"`
			Write struct {
				TotalIOs int64 `json:"total_ios"`
			} `json:"write"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("fio output: %v\n%s", err, out)
	}
	if len(res.Jobs) != 1 || res.Jobs[0].Error != 0 {
		t.Fatalf("fio jobs: %+v\n%s", res.Jobs, out)
	}
	return res.Jobs[0].Read.TotalIOs, res.Jobs[0].Write.TotalIOs
}
