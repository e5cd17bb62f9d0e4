//go:build js && wasm

// Command wasm is the raidsim playground's WebAssembly module. Built
// with GOOS=js GOARCH=wasm, it defines raidsimRun(settingsJSON) ->
// resultJSON and raidsimControls() -> the page's controls in JSON (from
// the field table, spec.Fields) on the page's global object, then calls
// the page's raidsimReady().
package main

import (
	"encoding/json"
	"syscall/js"

	"github.com/raidsim/raidsim/cmd/raidsim/playground"
)

func main() {
	js.Global().Set("raidsimRun", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 1 || args[0].Type() != js.TypeString {
			return `{"error":"raidsimRun wants one JSON string of settings"}`
		}
		return playground.RunJSON(args[0].String())
	}))
	js.Global().Set("raidsimControls", js.FuncOf(func(js.Value, []js.Value) any {
		b, _ := json.Marshal(playground.PageControls())
		return string(b)
	}))
	if ready := js.Global().Get("raidsimReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // keep the functions alive
}
