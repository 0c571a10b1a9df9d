/* source.c — the source line of an instruction from the program's BTF
 * line info (.BTF.ext, as the kernel receives it: struct bpf_line_info,
 * insn_off in instructions): the last record at or before the insn that
 * names a line (line 0 marks compiler-made code). */
#include <bpf/btf.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>

#include "explain/internal.h"

void ex_source_line(const struct rb_object *obj, size_t prog_idx, int insn, char *buf, size_t len)
{
	buf[0] = 0;
	const struct rb_prog *p = &obj->progs[prog_idx];
	if (!p->line_info || !p->line_info_cnt || p->line_info_rec_size < sizeof(struct bpf_line_info) || !obj->btf)
		return;
	const struct bpf_line_info *best = NULL;
	for (uint32_t i = 0; i < p->line_info_cnt; i++) {
		const struct bpf_line_info *li =
			(const void *)((const char *)p->line_info + (size_t)i * p->line_info_rec_size);
		/* line 0: code the compiler made up (no source line) */
		if (li->insn_off <= (uint32_t)insn && BPF_LINE_INFO_LINE_NUM(li->line_col) &&
		    (!best || li->insn_off >= best->insn_off))
			best = li;
	}
	if (!best)
		return;
	struct btf *btf = btf__new(obj->btf, (uint32_t)obj->btf_size);
	if (!btf)
		return;
	const char *file = btf__name_by_offset(btf, best->file_name_off);
	const char *line = btf__name_by_offset(btf, best->line_off);
	const char *base = file ? strrchr(file, '/') : NULL;
	while (line && (*line == ' ' || *line == '\t'))
		line++;
	snprintf(buf, len, "%s:%u: %s", base ? base + 1 : file ? file : "?", BPF_LINE_INFO_LINE_NUM(best->line_col),
		 line ? line : "");
	btf__free(btf);
}
