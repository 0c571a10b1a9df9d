# tiny.sh — sourced after tap.sh: compiles the BPF fixture
# tests/cli/fixtures/tiny.bpf.c to $tmp/tiny.o, or fails the script.
if ! clang -O2 -target bpf -c tests/cli/fixtures/tiny.bpf.c -o "$tmp/tiny.o" 2>"$tmp/clang.err"; then
	notok "compile the BPF fixture with clang" "$tmp/clang.err"
	exit 1
fi
