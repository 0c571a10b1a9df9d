/* lirc_params.bpf.c — an object in the conventions of v4l-utils'
 * bpf_load.c (ir-keytable's IR protocol decoders): struct bpf_map_def maps
 * in a section named "lirc_mode2/maps", and parameters as global variables
 * whose address the program takes (BPF_PARAM): the loader writes each
 * variable's value (200 from .data, 0 from .bss) into the ld_imm64 that
 * names it, as ir-keytable does (test_loader_old.c test_lirc_params). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct legacy_map_def {
	unsigned int type, key_size, value_size, max_entries, map_flags, inner_map_idx, numa_node;
};

struct legacy_map_def SEC("lirc_mode2/maps") state_map = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = 4,
	.value_size = 8,
	.max_entries = 1,
};

int margin = 200;
int floor_us; /* in .bss: 0 */
#define BPF_PARAM(x) ((int)(long)(&(x)))

SEC("lirc_mode2/params")
int decode(unsigned int *sample)
{
	unsigned int key = 0, d = *sample & 0xffffff;
	__u64 *st = bpf_map_lookup_elem(&state_map, &key);

	if (!st)
		return 0;
	if (d > (unsigned int)BPF_PARAM(margin))
		*st += d - BPF_PARAM(margin) + BPF_PARAM(floor_us);
	return 0;
}

char _license[] SEC("license") = "GPL";
