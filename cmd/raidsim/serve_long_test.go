//go:build long

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cmd/raidsim/playground"
)

// screenshot, when set, is where TestPlaygroundChromium saves a PNG of
// the page (the README's docs/playground.png:
// go test -tags long ./cmd/raidsim -run Chromium -screenshot ../../docs/playground.png).
var screenshot = flag.String("screenshot", "", "TestPlaygroundChromium: save a PNG of the page here")

// chromium returns the path of a Chromium or Chrome, or "".
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// pageState is what the test reads off the page after a run.
type pageState struct {
	Runs     string `json:"runs"`
	IOPS     string `json:"iops"`
	MBps     string `json:"mbps"`
	Report   string `json:"report"`
	CDF      string `json:"cdf"`
	Through  string `json:"through"`
	Cells    int    `json:"cells"`
	Explain  string `json:"explain"`
	Settings string `json:"settings"`
}

const readPage = `(() => ({
	runs: document.getElementById("status").dataset.runs,
	iops: document.getElementById("iops").textContent,
	mbps: document.getElementById("mbps").textContent,
	report: document.getElementById("report").textContent,
	cdf: document.querySelector("#cdf path.curve").getAttribute("d"),
	through: document.querySelector("#throughput path.curve").getAttribute("d"),
	cells: document.querySelectorAll("#stripemap .row rect:not(.bg)").length,
	explain: document.getElementById("explain").textContent,
	settings: JSON.stringify(settings()),
}))()`

// TestPlaygroundChromium loads the playground in a real headless
// Chromium, runs it, changes a control and runs again, moves the
// queue-depth slider, and checks that the charts and numbers change and
// match `raidsim run` for the settings the page shows.
func TestPlaygroundChromium(t *testing.T) {
	browser := chromium()
	if browser == "" {
		t.Skip("no Chromium in PATH (Debian: apt-get install chromium): skipping the browser test")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	module, wasmExec, err := playground.Build(ctx, ".")
	if errors.Is(err, playground.ErrNoToolchain) {
		t.Skip("no Go toolchain in PATH: cannot build the playground")
	}
	require.NoError(t, err)
	srv := httptest.NewServer(playground.Handler(module, wasmExec))
	defer srv.Close()
	bctx, step := openBrowser(ctx, t, browser)

	start := time.Now()
	var first, second, third pageState
	waitRuns := func(n string) chromedp.Action {
		return chromedp.WaitVisible(`#status[data-runs="`+n+`"]`, chromedp.ByQuery)
	}
	for _, st := range []struct {
		what string
		act  chromedp.Action
	}{
		{"load the page", chromedp.Navigate(srv.URL + "/")},
		{"wait for the first run", waitRuns("1")},
		{"read the first run", chromedp.Evaluate(readPage, &first)},
		// Move the queue-depth slider: the page reruns by itself.
		{"move the slider", chromedp.Evaluate(`(() => { const s = document.querySelector('[data-path="phases[0].iodepth"]'); s.value = "16";
			s.dispatchEvent(new Event("input")); return true })()`, nil)},
		{"wait for the second run", waitRuns("2")},
		{"read the second run", chromedp.Evaluate(readPage, &second)},
		// Change a control (a 1 MiB volume write-back cache, which fills
		// and destages) as a user does, then press Run.
		{"choose a 1 MiB cache", chromedp.SetValue(`[data-path="stack.cache.size"]`, "1MiB", chromedp.ByQuery)},
		{"press Run", chromedp.Evaluate(`document.getElementById("run").click(), true`, nil)},
		{"wait for the third run", waitRuns("3")},
		{"read the third run", chromedp.Evaluate(readPage, &third)},
	} {
		step(st.what, st.act)
	}
	t.Logf("Chromium: 3 runs in %v; IOPS %s -> %s (queue depth 16) -> %s (1 MiB cache)",
		time.Since(start).Round(time.Millisecond), first.IOPS, second.IOPS, third.IOPS)
	checkPageRuns(t, first, second, third)
	if *screenshot != "" {
		var png []byte
		require.NoError(t, chromedp.Run(bctx, chromedp.FullScreenshot(&png, 100))) // 100: PNG, not JPEG
		require.Equal(t, "\x89PNG", string(png[:4]))
		require.NoError(t, os.WriteFile(*screenshot, png, 0o644))
	}
}

// openBrowser starts a headless Chromium and returns its context and a
// step function that runs one action with its own deadline, reporting
// the page's status line if it fails.
func openBrowser(ctx context.Context, t *testing.T, browser string) (context.Context, func(string, chromedp.Action)) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.WindowSize(1320, 1180), chromedp.Flag("disable-dev-shm-usage", true))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	// chromedp's protocol tables may predate the installed Chromium: an
	// event with a value they do not know is logged and dropped, which
	// this test never needs.
	quiet := func(format string, args ...any) {
		if msg := fmt.Sprintf(format, args...); !strings.Contains(msg, "could not unmarshal event") {
			t.Log(msg)
		}
	}
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithErrorf(quiet))
	t.Cleanup(bcancel)
	// The first Run starts the browser, tied to bctx (not to a step's
	// shorter deadline).
	require.NoError(t, chromedp.Run(bctx), "start Chromium")
	return bctx, func(what string, act chromedp.Action) {
		t.Helper()
		sctx, scancel := context.WithTimeout(bctx, 20*time.Second)
		defer scancel()
		if err := chromedp.Run(sctx, act); err != nil {
			var status string
			dctx, dcancel := context.WithTimeout(bctx, 3*time.Second)
			defer dcancel()
			_ = chromedp.Run(dctx, chromedp.Evaluate(`document.getElementById("status").textContent`, &status))
			t.Fatalf("%s: %v (page status %q)", what, err, status)
		}
	}
}

// checkPageRuns checks each run against the CLI and that the slider and
// the cache changed the charts and numbers.
func checkPageRuns(t *testing.T, first, second, third pageState) {
	t.Helper()
	for i, st := range []pageState{first, second, third} {
		var s playground.Settings
		require.NoError(t, json.Unmarshal([]byte(st.Settings), &s))
		code, out, errOut := runCLI(t, s.Args()...)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, out, st.Report, "run %d: the page's report is the CLI's for the same settings", i+1)
		assert.Contains(t, allRow(out), " "+st.IOPS+" ", "run %d: the IOPS shown is the CLI's", i+1)
		assert.Contains(t, allRow(out), " "+st.MBps+" ", "run %d: the MB/s shown is the CLI's", i+1)
		assert.Positive(t, st.Cells, "run %d: the stripe map has member I/Os", i+1)
		assert.Contains(t, st.Explain, "in short:", "run %d: the explain tree", i+1)
	}
	assert.NotEqual(t, first.IOPS, second.IOPS, "the slider changes the numbers")
	assert.NotEqual(t, first.Through, second.Through, "and moves the throughput curve")
	assert.NotEqual(t, first.CDF, second.CDF, "and the CDF")
	assert.NotEqual(t, second.IOPS, third.IOPS, "the cache changes the numbers")
	assert.NotEqual(t, second.CDF, third.CDF, "and the CDF")
}

// allRow returns the report's "all" line of its first summary table.
func allRow(report string) string {
	for _, l := range strings.Split(report, "\n") {
		if strings.HasPrefix(l, "all ") {
			return l + " "
		}
	}
	return ""
}
