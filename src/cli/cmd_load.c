/* cmd_load.c — `rangebench load [--btf FILE] [--json] OBJ...`: open BPF
 * objects with the loader and list their programs and maps. A file that
 * fails prints "FILE: error: reason" and the next file is tried; the exit
 * code is 2 if any file failed. With --json, one JSON object per file per
 * line. */
#include <bpf/libbpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/type_opts.h"
#include "loader/object.h"
#include "loader/prog_type.h"
#include "loader/type_hints.h"
#include "loader/uapi_names.h"
#include "util/printable.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: rangebench load [--btf FILE] [--json] [--prog-type TYPE [--attach-type TYPE]]\n"
		   "                       [--license LICENSE] OBJ...\n"
		   "  Open BPF ELF objects as the kernel would receive them and list every\n"
		   "  program (section, program and attach type, autoload flag, instructions\n"
		   "  after relocation) and map. --btf: vmlinux BTF for CO-RE (default\n"
		   "  /sys/kernel/btf/vmlinux). --json: one JSON object per file per line.\n"
		   "  --prog-type: the program type of programs whose section name libbpf does\n"
		   "  not know (a libbpf type name such as sched_cls, xdp, or a section name such\n"
		   "  as tc, kprobe/NAME); --attach-type: their expected attach type.\n"
		   "  Sections libbpf does not know are typed by the conventions of iproute2,\n"
		   "  Cilium and libbpf < 1.0 where those decide (shown as type-from), after the\n"
		   "  rules of a file " RB_TYPE_HINTS_FILE " in the object's directory, one a line:\n"
		   "  OBJECT-GLOB[:SECTION-GLOB] PROG-TYPE [ATTACH-TYPE] (first match wins); a line\n"
		   "  on stderr says which rule typed each program. --license: the license of an\n"
		   "  object without a license section (default: empty, as libbpf loads it).\n");
}

static const char *prog_type_name(const struct rb_prog *p)
{
	if (!p->type_known)
		return "unknown";
	const char *s = rb_prog_type_str(p->prog_type);
	return s ? s : "?";
}

/* expected attach type; 0 (cgroup_inet_ingress) means "none" except for
 * cgroup skb programs */
static const char *attach_name(const struct rb_prog *p)
{
	if (p->expected_attach_type == 0 && p->prog_type != BPF_PROG_TYPE_CGROUP_SKB)
		return "-";
	const char *s = rb_attach_type_str(p->expected_attach_type);
	return s ? s : "?";
}

static const char *map_type_name(uint32_t t)
{
	const char *s = libbpf_bpf_map_type_str(t);
	return s ? s : "?";
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void fixups_text(uint32_t f, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s%s%s%s", f & RB_MAP_FIX_MAX_ENTRIES ? " max_entries" : "",
		 f & RB_MAP_FIX_KEY_SIZE ? " key_size" : "", f & RB_MAP_FIX_VALUE_SIZE ? " value_size" : "",
		 f & RB_MAP_FIX_INNER ? " inner_map" : "");
}

/* names from the object, escaped for the terminal (util/printable.h);
 * "?" when out of memory */
static char *esc(const char *s)
{
	char *e = rb_printable_dup(s);
	return e ? e : strdup("?");
}

static void print_text(const struct rb_object *o)
{
	char *path = esc(o->path);
	printf("%s: %zu programs, %zu maps, BTF %s%s%s%s, sha256 %s\n", path ? path : "?", o->prog_cnt, o->map_cnt,
	       o->btf ? "yes" : "no", o->legacy_maps ? ", legacy maps" : "", o->iproute2 ? " (iproute2)" : "",
	       o->own_path && !o->legacy_maps ? ", opened without libbpf" : "", o->sha256);
	for (size_t i = 0; i < o->prog_cnt; i++) {
		const struct rb_prog *p = &o->progs[i];
		char *name = esc(p->name), *sec = esc(p->section), *target = esc(p->attach_name),
		     *from = esc(p->type_from), *fills = esc(p->tail_filled ? o->maps[p->tail_map_idx].name : ""),
		     *undef = esc(p->undefined_calls), *error = esc(p->error);
		printf("  prog %-24s section %-28s type %-16s attach %-22s autoload %-3s insns %zu", name ? name : "?",
		       sec ? sec : "?", prog_type_name(p), attach_name(p), p->autoload ? "yes" : "no", p->insn_cnt);
		if (p->attach_btf_id)
			printf(" target %s (btf id %u)", target ? target : "?", p->attach_btf_id);
		if (p->type_known && strcmp(p->type_from, "libbpf"))
			printf(" type-from %s", from ? from : "?");
		if (p->type_rule[0]) {
			char *rule = esc(p->type_rule);
			printf(" (%s)", rule ? rule : "?");
			free(rule);
		}
		if (p->tail_call)
			printf(" tail-call map-id %u slot %u%s%s", p->tail_map_id, p->tail_slot,
			       p->tail_filled ? " fills " : "", fills ? fills : "?");
		if (p->undefined_calls[0] && undef) { /* one column: "a,b" */
			printf(" calls-undefined ");
			for (const char *c = undef; *c; c++)
				if (*c != ' ')
					putchar(*c);
		}
		if (p->error[0])
			printf(" error: %s", error ? error : "?");
		putchar('\n');
		if (!p->type_known) {
			char why[256], *w;
			rb_prog_type_unknown_msg(p, why, sizeof(why));
			w = esc(why);
			fprintf(stderr, "%s: %s: %s\n", path ? path : "?", name ? name : "?", w ? w : "?");
			free(w);
		}
		if (p->undefined_calls[0]) {
			char why[512], *w;
			rb_prog_undefined_note(p, why, sizeof(why));
			w = esc(why);
			fprintf(stderr, "%s: %s: %s\n", path ? path : "?", name ? name : "?", w ? w : "?");
			free(w);
		}
		free(name), free(sec), free(target), free(from), free(fills), free(undef), free(error);
	}
	for (size_t i = 0; i < o->map_cnt; i++) {
		const struct rb_map *m = &o->maps[i];
		char fx[64];
		fixups_text(m->fixups, fx, sizeof(fx));
		char *name = esc(m->name), *inner = esc(m->inner_map_idx >= 0 ? o->maps[m->inner_map_idx].name : "");
		printf("  map  %-24s type %-18s key %u value %u max_entries %u flags 0x%x%s%s%s%s%s", name ? name : "?",
		       map_type_name(m->type), m->key_size, m->value_size, m->max_entries, m->map_flags,
		       m->frozen ? " read-only(frozen)" : "", m->global_data ? " global-data" : "",
		       m->inner_template ? " inner-template" : "", m->fixups ? " sized-by-loader:" : "", fx);
		if (m->inner_map_idx >= 0)
			printf(" inner-map %s", inner ? inner : "?");
		putchar('\n');
		free(name), free(inner);
	}
	free(path);
}

static void print_json(const struct rb_object *o)
{
	printf("{\"file\":");
	json_str(o->path);
	printf(",\"sha256\":\"%s\",\"btf\":%s,\"legacy_maps\":%s,\"programs\":[", o->sha256,
	       o->btf ? "true" : "false", o->legacy_maps ? "true" : "false");
	for (size_t i = 0; i < o->prog_cnt; i++) {
		const struct rb_prog *p = &o->progs[i];
		printf("%s{\"name\":", i ? "," : "");
		json_str(p->name);
		printf(",\"section\":");
		json_str(p->section);
		printf(",\"type\":\"%s\",\"type_known\":%s,\"prog_type\":%u,\"expected_attach_type\":\"%s\","
		       "\"autoload\":%s,\"insns\":%zu,\"attach_btf_id\":%u,\"attach_name\":",
		       prog_type_name(p), p->type_known ? "true" : "false", p->prog_type,
		       attach_name(p), p->autoload ? "true" : "false", p->insn_cnt,
		       p->attach_btf_id);
		json_str(p->attach_name);
		printf(",\"type_from\":");
		json_str(p->type_from);
		if (p->tail_call) {
			printf(",\"tail_call\":{\"map_id\":%u,\"slot\":%u,\"fills\":", p->tail_map_id, p->tail_slot);
			if (p->tail_filled)
				json_str(o->maps[p->tail_map_idx].name);
			else
				printf("null");
			printf("}");
		}
		printf(",\"func_info\":%u,\"line_info\":%u", p->func_info ? p->func_info_cnt : 0,
		       p->line_info ? p->line_info_cnt : 0);
		printf(",\"undefined_calls\":");
		json_str(p->undefined_calls);
		printf(",\"error\":");
		if (p->error[0])
			json_str(p->error);
		else
			printf("null");
		putchar('}');
	}
	printf("],\"maps\":[");
	for (size_t i = 0; i < o->map_cnt; i++) {
		const struct rb_map *m = &o->maps[i];
		printf("%s{\"name\":", i ? "," : "");
		json_str(m->name);
		printf(",\"type\":\"%s\",\"key_size\":%u,\"value_size\":%u,\"max_entries\":%u,\"flags\":%u,"
		       "\"frozen\":%s,\"global_data\":%s,\"inner_map_idx\":%d,\"sized_by_loader\":%u}",
		       map_type_name(m->type), m->key_size, m->value_size, m->max_entries, m->map_flags,
		       m->frozen ? "true" : "false", m->global_data ? "true" : "false", m->inner_map_idx,
		       m->fixups);
	}
	printf("]}\n");
}

int cmd_load(int argc, char **argv)
{
	struct rb_load_opts opts = {0};
	bool json = false;
	int i = 1;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--btf")) {
			if (++i >= argc) {
				fprintf(stderr, "rangebench load: --btf needs a FILE\n");
				return 2;
			}
			opts.btf_path = argv[i];
		} else if (!strcmp(argv[i], "--prog-type") || !strcmp(argv[i], "--attach-type")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "rangebench load: %s needs a TYPE\n", argv[i]);
				return 2;
			}
			if (argv[i][2] == 'p')
				opts.prog_type = argv[++i];
			else
				opts.attach_type = argv[++i];
		} else if (!strcmp(argv[i], "--license")) {
			if (++i >= argc) {
				fprintf(stderr, "rangebench load: --license needs a LICENSE\n");
				return 2;
			}
			opts.license = argv[i];
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "rangebench load: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else {
			break;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	if (rb_cli_check_type_opts("load", &opts))
		return 2;
	size_t nfail = 0, nok = 0, nprogs = 0, nunknown = 0, nerr = 0;
	for (; i < argc; i++) {
		struct rb_object *o;
		struct rb_err err = {{0}};
		if (rb_object_open(argv[i], &opts, &o, &err)) {
			nfail++;
			/* err.msg is "FILE: reason" */
			const char *why = err.msg;
			size_t pl = strlen(argv[i]);
			if (!strncmp(why, argv[i], pl) && !strncmp(why + pl, ": ", 2))
				why += pl + 2;
			if (json) {
				printf("{\"file\":");
				json_str(argv[i]);
				printf(",\"error\":");
				json_str(why);
				printf("}\n");
			} else {
				fflush(stdout);
				char *file = esc(argv[i]);
				fprintf(stderr, "%s: error: %s\n", file ? file : "?", why);
				free(file);
			}
			continue;
		}
		nok++;
		nprogs += o->prog_cnt;
		for (size_t k = 0; k < o->prog_cnt; k++) {
			nunknown += !o->progs[k].type_known;
			nerr += o->progs[k].error[0] != 0;
		}
		if (json)
			print_json(o);
		else
			print_text(o);
		rb_cli_object_notes("load", o);
		rb_object_free(o);
	}
	if (!json)
		printf("# %zu objects opened, %zu failed; %zu programs (%zu of unknown type, %zu not prepared)\n",
		       nok, nfail, nprogs, nunknown, nerr);
	return nfail ? 2 : 0;
}
