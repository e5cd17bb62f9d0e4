package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/raidsim/raidsim/cmd/raidsim/playground"
)

const serveHelp = `Usage: raidsim serve [--addr HOST:PORT] [--wasm FILE --wasm-exec FILE]

Serves the playground on localhost: raidsim compiled to WebAssembly behind
one page with controls for the drive, RAID level, disks, stripe unit,
volume cache and workload; it runs in the browser and draws throughput, a
latency CDF, a stripe map and the life of a clicked request. Open the URL
it prints.

The page is built into raidsim; the WebAssembly module is compiled once at
start (GOOS=js GOARCH=wasm go build, about a minute the first time), so
run it inside the raidsim repository with the Go toolchain in PATH
(go run ./cmd/raidsim serve), or give a module built beforehand with
--wasm and its toolchain's wasm_exec.js with --wasm-exec.
`

// runServe is `raidsim serve`.
func runServe(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (keep it on localhost)")
	wasm := fs.String("wasm", "", "a playground module built beforehand (GOOS=js GOARCH=wasm go build ./cmd/raidsim/playground/wasm)")
	wasmExec := fs.String("wasm-exec", "", "with --wasm: the wasm_exec.js of the Go toolchain that built it")
	rest, err := parseFlags(fs, args, stdout, func(w io.Writer) { writeHelp(w, serveHelp, fs) }, nil)
	if err != nil {
		return err
	}
	if err := noArgs(rest); err != nil {
		return err
	}
	if (*wasm == "") != (*wasmExec == "") {
		return usagef("--wasm and --wasm-exec go together")
	}
	module, js, err := loadModule(*wasm, *wasmExec, stderr)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	fmt.Fprintf(stdout, "raidsim playground: http://%s/ (Ctrl-C stops it)\n", ln.Addr())
	srv := &http.Server{Handler: playground.Handler(module, js), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// loadModule reads a prebuilt module, or builds one from the source tree
// around the working directory.
func loadModule(wasm, wasmExec string, stderr io.Writer) (module, js []byte, err error) {
	if wasm != "" {
		if module, err = os.ReadFile(wasm); err == nil {
			js, err = os.ReadFile(wasmExec)
		}
		return module, js, err
	}
	fmt.Fprintln(stderr, "raidsim serve: building the playground (GOOS=js GOARCH=wasm go build)...")
	dir, err := os.Getwd()
	if err != nil {
		return nil, nil, err
	}
	module, js, err = playground.Build(context.Background(), dir)
	if err != nil {
		return nil, nil, fmt.Errorf("%w\n(run raidsim serve inside the raidsim repository with Go in PATH, or pass --wasm and --wasm-exec)", err)
	}
	return module, js, nil
}
