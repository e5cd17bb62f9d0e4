package playground

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

//go:embed web
var web embed.FS

// Handler serves the playground: the embedded page, wasmExec (Go's
// wasm_exec.js, which must come from the toolchain that built the
// module) and the module itself.
func Handler(module, wasmExec []byte) http.Handler {
	static, _ := fs.Sub(web, "web")
	files := http.FileServer(http.FS(static))
	mod := time.Unix(0, 0)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/playground.wasm":
			w.Header().Set("Content-Type", "application/wasm")
			http.ServeContent(w, r, "playground.wasm", mod, bytes.NewReader(module))
		case "/wasm_exec.js":
			w.Header().Set("Content-Type", "text/javascript")
			http.ServeContent(w, r, "wasm_exec.js", mod, bytes.NewReader(wasmExec))
		default:
			files.ServeHTTP(w, r)
		}
	})
}

// ErrNoToolchain reports that the Go toolchain needed to build the
// module is not available.
var ErrNoToolchain = errors.New("playground: the Go toolchain (go) is not in PATH")

// Build compiles the WebAssembly module (GOOS=js GOARCH=wasm go build of
// the subpackage wasm) from the raidsim source tree around dir, and
// returns it with the toolchain's wasm_exec.js. It needs the go command
// and the module's source: run it inside the repository.
func Build(ctx context.Context, dir string) (module, wasmExec []byte, err error) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return nil, nil, ErrNoToolchain
	}
	goroot, err := goEnv(ctx, gobin, dir, "GOROOT")
	if err != nil {
		return nil, nil, err
	}
	wasmExec, err = readFirst(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"), filepath.Join(goroot, "misc", "wasm", "wasm_exec.js"))
	if err != nil {
		return nil, nil, fmt.Errorf("playground: %s has no wasm_exec.js: %w", goroot, err)
	}
	tmp, err := os.MkdirTemp("", "raidsim-playground")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "playground.wasm")
	cmd := exec.CommandContext(ctx, gobin, "build", "-trimpath", "-o", out, "github.com/raidsim/raidsim/cmd/raidsim/playground/wasm")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("playground: GOOS=js GOARCH=wasm go build (in %s): %w\n%s", dir, err, msg)
	}
	module, err = os.ReadFile(out)
	return module, wasmExec, err
}

func goEnv(ctx context.Context, gobin, dir, name string) (string, error) {
	cmd := exec.CommandContext(ctx, gobin, "env", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("playground: go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

func readFirst(paths ...string) ([]byte, error) {
	var err error
	for _, p := range paths {
		var b []byte
		if b, err = os.ReadFile(p); err == nil {
			return b, nil
		}
	}
	return nil, err
}
