#!/usr/bin/env python3
"""manifest.py CORPUS [RANGEBENCH] — write CORPUS/manifest.tsv: one row per program.

Columns: source, package, version, object (path relative to CORPUS),
program, section, sha256 (of the object file), prog_type (the program type
`rangebench run` gives the object's programs whose section libbpf does not
know, "-" for none: an optional fifth column of .provenance.tsv). A header
row comes first.

Programs come from the project's loader when RANGEBENCH is given and its
`load --json` opens the object: exactly the programs the engine will see
(libbpf's rules: functions in .text are sub-programs unless .text is all
there is). Otherwise (no loader, or the loader refuses the object: e.g. an
extern this kernel lacks) they come from llvm-readelf: every FUNC symbol
defined in an executable (SHF_EXECINSTR) section other than .text. An
object with no program gets one row with program and section "-", so every
object is listed. Package and version come from each source's
.provenance.tsv (written by the source's recipe script)."""
import hashlib
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

SHF_EXECINSTR = 4
# the sources the repository's recipes build, in manifest order; any other
# directory of the corpus with a .provenance.tsv (the optional sources of
# local recipes, see recipe/repos.sh) comes after them in name order
SOURCES = ["xdp-tools", "libbpf-tools", "pcp", "selftests", "kernel-tree", "iproute2", "cilium-ebpf",
           "debian-extra", "own", "verifier-tests"]


def all_sources(corpus):
    extra = sorted(d for d in os.listdir(corpus)
                   if d not in SOURCES and os.path.exists(os.path.join(corpus, d, ".provenance.tsv")))
    return SOURCES[:-2] + extra + SOURCES[-2:]


def readelf(paths):
    out = subprocess.run(["llvm-readelf", "--elf-output-style=JSON", "-S", "-s"] + paths,
                         check=True, capture_output=True, text=True).stdout
    res = {}
    for entry in json.loads(out):
        for path, d in entry.items():
            res[path] = d
    return res


def programs(d):
    secs = {}
    for s in d.get("Sections", []):
        s = s["Section"]
        if s["Flags"]["RawFlags"] & SHF_EXECINSTR and s["Name"]["Value"] != ".text" and s["Size"] > 0:
            secs[s["Index"]] = s["Name"]["Value"]
    progs = []
    for sym in d.get("Symbols", []):
        sym = sym["Symbol"]
        if sym["Type"]["Value"] != "Function":
            continue
        idx = sym["Section"].get("RawValue")
        if isinstance(idx, int) and idx in secs:
            progs.append((idx, sym["Value"], sym["Name"]["Value"], secs[idx]))
    progs.sort()
    return [(name, sec) for _, _, name, sec in progs]


def loader_programs(rb, paths):
    """{path: [(name, section)]} for the objects the loader opens."""
    res = {}
    if not rb:
        return res
    chunks = [paths[i:i + 40] for i in range(0, len(paths), 40)]

    def run(chunk):
        try:
            return subprocess.run([rb, "load", "--json"] + chunk, capture_output=True, text=True,
                                  timeout=600).stdout
        except (OSError, subprocess.TimeoutExpired):
            return ""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        outs = list(ex.map(run, chunks))
    for out in outs:
        for line in out.splitlines():
            try:
                d = json.loads(line)
            except ValueError:
                continue
            if "programs" in d and "file" in d:
                res[d["file"]] = [(p["name"], p["section"]) for p in d["programs"]]
    return res


def main():
    corpus = sys.argv[1]
    rb = sys.argv[2] if len(sys.argv) > 2 else None
    used_loader = used_readelf = 0
    rows = []
    for src in all_sources(corpus):
        prov_path = os.path.join(corpus, src, ".provenance.tsv")
        if not os.path.exists(prov_path):
            continue
        prov = {}
        with open(prov_path) as f:
            for line in f:
                fields = line.rstrip("\n").split("\t")
                obj, pkg, ver = fields[:3]
                ptype = fields[4] if len(fields) > 4 and fields[4] else "-"
                prov[obj] = (pkg, ver, ptype)
        objs = sorted(prov)
        paths = [os.path.join(corpus, src, o) for o in objs]
        from_loader = loader_programs(rb, paths)
        # llvm-readelf only for ELF objects (.rbvt files are the loader's own format)
        rest = [p for p in paths if p not in from_loader and p.endswith(".o")]
        info = {}
        for i in range(0, len(rest), 200):
            info.update(readelf(rest[i:i + 200]))
        for o, p in zip(objs, paths):
            with open(p, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            pkg, ver, ptype = prov[o]
            if p in from_loader:
                progs = from_loader[p]
                used_loader += 1
            elif p in info:
                progs = programs(info[p])
                used_readelf += 1
            else:
                progs = []
            progs = progs or [("-", "-")]
            for name, sec in progs:
                rows.append((src, pkg, ver, f"{src}/{o}", name, sec, digest, ptype))
    tmp = os.path.join(corpus, "manifest.tsv.tmp")
    with open(tmp, "w") as f:
        f.write("source\tpackage\tversion\tobject\tprogram\tsection\tsha256\tprog_type\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    os.replace(tmp, os.path.join(corpus, "manifest.tsv"))
    print(f"corpus: manifest: programs of {used_loader} objects from the loader, "
          f"{used_readelf} from llvm-readelf", file=sys.stderr)


if __name__ == "__main__":
    main()
