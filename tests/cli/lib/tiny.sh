# tiny.sh — sourced after tap.sh: the BPF fixture tests/cli/fixtures/tiny.bpf.c
# as $tmp/tiny.o, or fails the script. tiny_obj DEST [TAG] puts the fixture
# built with -DTAG=TAG (objects of different content) at DEST. `make test`
# builds them beforehand ($RB_TEST_BIN/fixtures/tiny.o, tiny-tagN.o for TAG
# 1..4 and 7: each clang is ~0.1 s of CPU, 28 of them per run); one it has
# not built, or older than the source, is compiled here as before.
tiny_obj() {
	local dest=$1 tag=${2:-} pre=${RB_TEST_BIN:-build/test}/fixtures/tiny
	pre=$pre${tag:+-tag$tag}.o
	if [ -f "$pre" ] && [ "$pre" -nt tests/cli/fixtures/tiny.bpf.c ]; then
		cp "$pre" "$dest"
	else
		clang -O2 -target bpf ${tag:+-DTAG=$tag} -c tests/cli/fixtures/tiny.bpf.c -o "$dest"
	fi
}
if ! tiny_obj "$tmp/tiny.o" 2>"$tmp/clang.err"; then
	notok "compile the BPF fixture with clang" "$tmp/clang.err"
	exit 1
fi
