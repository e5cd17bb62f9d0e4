package disksim

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Pos is a place in a parameter file.
type Pos struct {
	// File is the path as opened (relative to the including file's
	// directory for sourced files).
	File string
	// Line is 1-based.
	Line int
}

// String returns "file:line".
func (p Pos) String() string { return fmt.Sprintf("%s:%d", p.File, p.Line) }

// Error is a problem with a parameter file, at a position.
type Error struct {
	// Pos is where the problem is.
	Pos Pos
	// Err is the problem.
	Err error
}

// Error formats the error as "disksim: file:line: problem".
func (e *Error) Error() string { return fmt.Sprintf("disksim: %s: %v", e.Pos, e.Err) }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

func errAt(p Pos, format string, args ...any) *Error {
	return &Error{Pos: p, Err: fmt.Errorf(format, args...)}
}

// Kind is the kind of a Value.
type Kind uint8

const (
	// Word is a bare word: a number, a name or a file name.
	Word Kind = iota
	// BlockValue is a block `TYPE { ... }`.
	BlockValue
	// ListValue is a list `[ ... ]`.
	ListValue
)

// Value is a parameter's value.
type Value struct {
	// Kind says which of the fields below is set.
	Kind Kind
	// Word is the text of a Word value (a number is kept as written).
	Word string
	// Block is a BlockValue's block.
	Block *Block
	// List holds a ListValue's elements.
	List []Value
	// Pos is where the value starts.
	Pos Pos
}

// Float returns the value as a number.
func (v Value) Float() (float64, error) {
	if v.Kind != Word {
		return 0, errAt(v.Pos, "want a number, got a %s", v.kindName())
	}
	f, err := strconv.ParseFloat(v.Word, 64)
	if err != nil {
		return 0, errAt(v.Pos, "want a number, got %q", v.Word)
	}
	return f, nil
}

// Int returns the value as an integer (a float with no fraction is
// accepted: DiskSim writes "63.000000").
func (v Value) Int() (int64, error) {
	f, err := v.Float()
	if err != nil {
		return 0, err
	}
	if f != float64(int64(f)) || f > 1<<53 || f < -(1<<53) {
		return 0, errAt(v.Pos, "want an integer, got %s", v.Word)
	}
	return int64(f), nil
}

func (v Value) kindName() string {
	switch v.Kind {
	case BlockValue:
		return "block"
	case ListValue:
		return "list"
	}
	return "word"
}

// Param is one `Key = value` of a block.
type Param struct {
	// Key is the parameter's name as written, words joined by one space.
	Key string
	// Value is its value.
	Value Value
	// Pos is where the key starts.
	Pos Pos
}

// Block is `TYPE NAME { ... }` (NAME empty for a nested block).
type Block struct {
	// Type is the block's type (disksim_disk, dm_mech_g1, ...) and Name
	// its name (empty for a nested block).
	Type, Name string
	// Params are the block's parameters in order.
	Params []Param
	// Pos is where the block's type is written.
	Pos Pos
}

// Get returns the parameter called key (case-insensitive, spaces
// normalised) and whether it is there.
func (b *Block) Get(key string) (Param, bool) {
	k := normKey(key)
	for _, p := range b.Params {
		if normKey(p.Key) == k {
			return p, true
		}
	}
	return Param{}, false
}

func normKey(k string) string { return strings.ToLower(strings.Join(strings.Fields(k), " ")) }

// Instance is `instantiate [ names ] as TYPE`.
type Instance struct {
	// Names are the component names instantiated.
	Names []string
	// As names the block they are instances of.
	As string
	// Pos is where the statement starts.
	Pos Pos
}

// Node is one element of a topology: `TYPE NAME [ children ]`.
type Node struct {
	// Type is the component's type (disksim_bus, ...) and Name its
	// instance name.
	Type, Name string
	// Children are the components attached below it.
	Children []Node
	// Pos is where the node starts.
	Pos Pos
}

// File is a parsed parameter file with its sourced files merged in.
type File struct {
	// Blocks are the top-level blocks in order, sourced files included;
	// a block sourced as a parameter value is also listed.
	Blocks    []*Block
	Instances []Instance
	Topology  []Node
}

// Lookup returns the top-level block called name.
func (f *File) Lookup(name string) *Block {
	for _, b := range f.Blocks {
		if b.Name == name {
			return b
		}
	}
	return nil
}

// Limits guard the parser against hostile input.
const (
	maxDepth   = 64
	maxSources = 64
	maxTokens  = 1 << 22
)

// ReadFunc reads a file by path; ParseFile uses os.ReadFile.
type ReadFunc func(path string) ([]byte, error)

// ParseFile parses the parameter file at path and the files it sources
// (resolved relative to the including file's directory).
func ParseFile(path string) (*File, error) {
	return Parse(path, os.ReadFile)
}

// Parse parses the file at path read with read, sourcing other files
// through read too.
func Parse(path string, read ReadFunc) (*File, error) {
	p := &parser{read: read, f: &File{}}
	if err := p.file(path, Pos{}, 0); err != nil {
		return nil, err
	}
	return p.f, nil
}

type token struct {
	s   string // "{", "}", "[", "]", "=", "," or a word
	pos Pos
}

func isPunct(c byte) bool {
	switch c {
	case '{', '}', '[', ']', '=', ',':
		return true
	}
	return false
}

func lex(name string, src []byte) ([]token, error) {
	var toks []token
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case isPunct(c):
			toks = append(toks, token{string(c), Pos{name, line}})
			i++
		case c < 0x20 || c == 0x7f:
			return nil, errAt(Pos{name, line}, "control character %#x", c)
		default:
			j := i
			for j < len(src) && !isPunct(src[j]) && src[j] != '#' && src[j] > ' ' && src[j] != 0x7f {
				j++
			}
			toks = append(toks, token{string(src[i:j]), Pos{name, line}})
			i = j
		}
		if len(toks) > maxTokens {
			return nil, errAt(Pos{name, line}, "more than %d tokens", maxTokens)
		}
	}
	return toks, nil
}

type parser struct {
	read    ReadFunc
	f       *File
	sources int
}

// stream is the token stream of one file.
type stream struct {
	toks []token
	i    int
	end  Pos
}

func (s *stream) peek() (token, bool) {
	if s.i >= len(s.toks) {
		return token{pos: s.end}, false
	}
	return s.toks[s.i], true
}

func (s *stream) next() (token, bool) {
	t, ok := s.peek()
	if ok {
		s.i++
	}
	return t, ok
}

func (s *stream) expect(want string) (token, error) {
	t, ok := s.next()
	if !ok {
		return t, errAt(t.pos, "unexpected end of file, want %q", want)
	}
	if t.s != want {
		return t, errAt(t.pos, "want %q, got %q", want, t.s)
	}
	return t, nil
}

func isWord(t token) bool { return len(t.s) > 1 || !isPunct(t.s[0]) }

func (p *parser) load(path string, from Pos, depth int) (*stream, error) {
	if depth > maxDepth {
		return nil, errAt(from, "sources nested deeper than %d", maxDepth)
	}
	p.sources++
	if p.sources > maxSources {
		return nil, errAt(from, "more than %d sourced files", maxSources)
	}
	src, err := p.read(path)
	if err != nil {
		if from.File == "" {
			return nil, fmt.Errorf("disksim: %w", err)
		}
		return nil, errAt(from, "source %s: %w", path, errors.Unwrap(err))
	}
	toks, err := lex(path, src)
	if err != nil {
		return nil, err
	}
	lines := 1 + strings.Count(string(src), "\n")
	return &stream{toks: toks, end: Pos{path, lines}}, nil
}

// resolve returns the path of a file sourced from the file at from.
func resolve(from, name string) string {
	if filepath.IsAbs(name) || from == "" {
		return name
	}
	return filepath.Join(filepath.Dir(from), name)
}

// file parses the top-level statements of path.
func (p *parser) file(path string, from Pos, depth int) error {
	s, err := p.load(path, from, depth)
	if err != nil {
		return err
	}
	for {
		t, ok := s.next()
		if !ok {
			return nil
		}
		if !isWord(t) {
			return errAt(t.pos, "unexpected %q at top level", t.s)
		}
		switch t.s {
		case "source":
			n, ok := s.next()
			if !ok || !isWord(n) {
				return errAt(n.pos, "source: want a file name")
			}
			if err := p.file(resolve(path, n.s), n.pos, depth+1); err != nil {
				return err
			}
		case "instantiate":
			names, err := p.nameList(s, depth)
			if err != nil {
				return err
			}
			if _, err := s.expect("as"); err != nil {
				return err
			}
			as, ok := s.next()
			if !ok || !isWord(as) {
				return errAt(as.pos, "instantiate: want a type name after \"as\"")
			}
			p.f.Instances = append(p.f.Instances, Instance{Names: names, As: as.s, Pos: t.pos})
		case "topology":
			n, err := p.node(s, depth)
			if err != nil {
				return err
			}
			p.f.Topology = append(p.f.Topology, n)
		default:
			name, ok := s.next()
			if !ok || !isWord(name) {
				return errAt(name.pos, "block %s: want a name", t.s)
			}
			b, err := p.block(s, path, t, depth)
			if err != nil {
				return err
			}
			b.Name = name.s
			p.f.Blocks = append(p.f.Blocks, b)
		}
	}
}

// nameList parses `[ a, b ]` of words.
func (p *parser) nameList(s *stream, depth int) ([]string, error) {
	if _, err := s.expect("["); err != nil {
		return nil, err
	}
	var names []string
	for {
		t, ok := s.next()
		switch {
		case !ok:
			return nil, errAt(t.pos, "unexpected end of file in a list")
		case t.s == "]":
			return names, nil
		case t.s == ",":
		case isWord(t):
			names = append(names, t.s)
		default:
			return nil, errAt(t.pos, "unexpected %q in a list of names", t.s)
		}
	}
}

// node parses `TYPE NAME [ children ]`.
func (p *parser) node(s *stream, depth int) (Node, error) {
	if depth > maxDepth {
		t, _ := s.peek()
		return Node{}, errAt(t.pos, "topology nested deeper than %d", maxDepth)
	}
	typ, ok := s.next()
	if !ok || !isWord(typ) {
		return Node{}, errAt(typ.pos, "topology: want a component type")
	}
	name, ok := s.next()
	if !ok || !isWord(name) {
		return Node{}, errAt(name.pos, "topology: want a component name")
	}
	n := Node{Type: typ.s, Name: name.s, Pos: typ.pos}
	if _, err := s.expect("["); err != nil {
		return Node{}, err
	}
	for {
		t, ok := s.peek()
		switch {
		case !ok:
			return Node{}, errAt(t.pos, "unexpected end of file in topology")
		case t.s == "]":
			s.next()
			return n, nil
		case t.s == ",":
			s.next()
		default:
			c, err := p.node(s, depth+1)
			if err != nil {
				return Node{}, err
			}
			n.Children = append(n.Children, c)
		}
	}
}

// block parses `{ Key = value, ... }` after the block's type (and name).
func (p *parser) block(s *stream, path string, typ token, depth int) (*Block, error) {
	if depth > maxDepth {
		return nil, errAt(typ.pos, "blocks nested deeper than %d", maxDepth)
	}
	if _, err := s.expect("{"); err != nil {
		return nil, err
	}
	b := &Block{Type: typ.s, Pos: typ.pos}
	for {
		t, ok := s.peek()
		if !ok {
			return nil, errAt(t.pos, "unexpected end of file in block %s (opened at line %d)", typ.s, typ.pos.Line)
		}
		if t.s == "}" {
			s.next()
			return b, nil
		}
		if t.s == "," {
			s.next()
			continue
		}
		// Key: words up to "=".
		var key []string
		kpos := t.pos
		for {
			t, ok = s.next()
			if !ok {
				return nil, errAt(t.pos, "unexpected end of file in a parameter name")
			}
			if t.s == "=" {
				break
			}
			if !isWord(t) {
				return nil, errAt(t.pos, "unexpected %q in parameter name %q (missing \"=\"?)", t.s, strings.Join(key, " "))
			}
			key = append(key, t.s)
		}
		if len(key) == 0 {
			return nil, errAt(t.pos, "\"=\" without a parameter name")
		}
		v, err := p.value(s, path, depth+1)
		if err != nil {
			return nil, err
		}
		b.Params = append(b.Params, Param{Key: strings.Join(key, " "), Value: v, Pos: kpos})
		n, ok := s.peek()
		if ok && n.s != "," && n.s != "}" {
			return nil, errAt(n.pos, "want \",\" or \"}\" after parameter %q, got %q", strings.Join(key, " "), n.s)
		}
	}
}

// value parses a word, `TYPE { ... }`, `source FILE` or `[ ... ]`.
func (p *parser) value(s *stream, path string, depth int) (Value, error) {
	if depth > maxDepth {
		t, _ := s.peek()
		return Value{}, errAt(t.pos, "values nested deeper than %d", maxDepth)
	}
	t, ok := s.next()
	if !ok {
		return Value{}, errAt(t.pos, "unexpected end of file, want a value")
	}
	switch {
	case t.s == "[":
		v := Value{Kind: ListValue, Pos: t.pos}
		for {
			n, ok := s.peek()
			switch {
			case !ok:
				return Value{}, errAt(n.pos, "unexpected end of file in a list (opened at line %d)", t.pos.Line)
			case n.s == "]":
				s.next()
				return v, nil
			case n.s == ",":
				s.next()
			default:
				e, err := p.value(s, path, depth+1)
				if err != nil {
					return Value{}, err
				}
				v.List = append(v.List, e)
			}
		}
	case !isWord(t):
		return Value{}, errAt(t.pos, "want a value, got %q", t.s)
	case t.s == "source":
		n, ok := s.next()
		if !ok || !isWord(n) {
			return Value{}, errAt(n.pos, "source: want a file name")
		}
		before := len(p.f.Blocks)
		if err := p.file(resolve(path, n.s), n.pos, depth+1); err != nil {
			return Value{}, err
		}
		if len(p.f.Blocks) != before+1 {
			return Value{}, errAt(n.pos, "source %s as a value: the file must hold exactly one block, it holds %d", n.s, len(p.f.Blocks)-before)
		}
		return Value{Kind: BlockValue, Block: p.f.Blocks[before], Pos: t.pos}, nil
	}
	if n, ok := s.peek(); ok && n.s == "{" {
		b, err := p.block(s, path, t, depth+1)
		if err != nil {
			return Value{}, err
		}
		return Value{Kind: BlockValue, Block: b, Pos: t.pos}, nil
	}
	return Value{Kind: Word, Word: t.s, Pos: t.pos}, nil
}
