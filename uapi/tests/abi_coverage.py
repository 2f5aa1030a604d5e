#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Prove that abi_layout_check.c leaves nothing of the upstream headers out.

Reads one kernel's <rdma/...> headers given (the write() ABI's
ib_user_verbs.h and rdma_user_rxe.h, the ioctl() ABI's rdma_user_ioctl_cmds.h,
ib_user_ioctl_cmds.h, ib_user_ioctl_verbs.h and rdma_user_ioctl.h, and
siw-abi.h), lists
every struct/union with every member (members of unnamed nested aggregates
included, by their access path), every named enum, every enumerator and
every value #define,
and checks that abi_layout_check.c has a BEGIN_GROUP for each type, a member
check of the right kind for each member (M for a scalar, A for an array,
FLEX/FLEXT for a flexible array, MT for a member of a named struct/union
type, whose upstream type must be the one the header declares, U/UO for an
unnamed aggregate; MAS, the weaker offset-and-size check for a renamed or
retyped member, stands in for a scalar, an array or a typed member; KPTR
for a member that is a kernel pointer, held in a u64 by ours), an ENUM()
check for each named enum and a K() (KSTR() for a string) check for each
constant (or a
NOT_UVERBS() line, for another char device's ioctl numbers that an upstream
header keeps beside ours; they are listed as TAP comments).

The table describes several kernels: lines under "#if OVB_REF_SINCE(M, N)"
(and its #else) count only for the reference kernel they are compiled for,
--ref MAJOR.MINOR (the headers' own version).  Every line left out for the
reference must name something its headers do not have (or that a line
compiled for it checks): so against an older kernel, each newer fact is
proven absent there, and each fact it has is checked.  With --ours, it
also checks the other way: every struct/union of our headers is compared
somewhere, and it lists our enum names and
constants that have no upstream counterpart (as TAP comments: they are ours
to define).  Prints TAP; exits 1 if anything is missing.

usage: abi_coverage.py --ref MAJOR.MINOR CHECK_FILE HEADER...
                       [--ours OUR_HEADER...]
"""
import re
import sys

TOKEN = re.compile(r"[A-Za-z_]\w*|0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|\S")


def strip(text):
    text = re.sub(r"\\\n", " ", text)
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    lines, skip = [], 0
    for line in text.split("\n"):
        s = line.strip()
        if s.startswith("#ifdef __KERNEL__"):
            skip += 1
        elif skip and s.startswith("#if"):
            skip += 1
        elif skip and s.startswith("#endif"):
            skip -= 1
        elif not skip:
            lines.append(line)
    return "\n".join(lines)


def defines(text):
    """Value macros (not guards, not function-like)."""
    out = []
    for m in re.finditer(r"^\s*#\s*define\s+(\w+)[ \t]+(\S[^\n]*)$", text, re.M):
        if not re.search(r"[{};]", m.group(2)):     # not a code fragment
            out.append(m.group(1))
    return out


def tokens(text):
    text = re.sub(r"^\s*#[^\n]*$", " ", text, flags=re.M)
    return TOKEN.findall(text)


class Parser:
    def __init__(self, toks):
        self.t, self.i = toks, 0
        self.types = {}          # name -> [(path, kind)]
        self.order = []
        self.enumerators = []
        self.enum_tags = []

    def peek(self, k=0):
        j = self.i + k
        return self.t[j] if j < len(self.t) else None

    def take(self, want=None):
        tok = self.t[self.i]
        if want is not None and tok != want:
            raise SyntaxError("expected %r, got %r at %d" % (want, tok, self.i))
        self.i += 1
        return tok

    def top(self):
        while self.peek() is not None:
            tok = self.peek()
            if tok in ("struct", "union") and self.peek(2) == "{":
                kw, name = self.take(), self.take()
                members = self.body("")
                self.take(";")
                self.types["%s %s" % (kw, name)] = members
                self.order.append("%s %s" % (kw, name))
            elif tok == "enum" and (self.peek(1) == "{" or self.peek(2) == "{"):
                self.take()
                if self.peek() != "{":
                    self.enum_tags.append(self.take())
                self.enum_body()
            else:
                self.take()

    def enum_body(self):
        self.take("{")
        expect_name = True
        depth = 0
        while True:
            tok = self.take()
            if tok == "}" and depth == 0:
                break
            if tok == "(":
                depth += 1
            elif tok == ")":
                depth -= 1
            elif tok == "," and depth == 0:
                expect_name = True
                continue
            if expect_name and re.match(r"[A-Za-z_]\w*$", tok):
                self.enumerators.append(tok)
                expect_name = False
        if self.peek() == ";":
            self.take()

    def body(self, prefix):
        """Members of a { ... } block, as (path, kind) with kind one of
        scalar / array / flex / anon / 'type:<struct x>'."""
        self.take("{")
        out = []
        while self.peek() != "}":
            out += self.member(prefix)
        self.take("}")
        return out

    def member(self, prefix):
        tok = self.peek()
        if tok == "RDMA_UAPI_PTR":   # RDMA_UAPI_PTR(type, name): a u64
            self.take()
            self.take("(")
            depth, last = 0, None
            while True:
                t = self.take()
                if t == ")" and depth == 0:
                    break
                depth += t == "("
                depth -= t == ")"
                last = t
            self.take(";")
            return [(prefix + last, "scalar")]
        if tok == "__DECLARE_FLEX_ARRAY":
            self.take()
            self.take("(")
            depth, args, cur = 0, [], []
            while True:
                t = self.take()
                if t == ")" and depth == 0:
                    break
                if t == "," and depth == 0:
                    args.append(cur)
                    cur = []
                    continue
                depth += t == "("
                depth -= t == ")"
                cur.append(t)
            args.append(cur)
            self.take(";")
            kind = "flex"
            if args[0][0] in ("struct", "union"):
                kind = "flex:%s %s" % (args[0][0], args[0][1])
            return [(prefix + args[1][-1], kind)]
        if tok in ("struct", "union") and (self.peek(1) == "{" or self.peek(2) == "{"):
            self.take()
            if self.peek() != "{":
                self.take()          # tag of a nested named type: unused here
            start = self.i
            inner_probe = self.body("\0")
            names = self.declarators()
            if not names:            # anonymous: members join this level
                self.i = start
                inner = self.body(prefix)
                self.declarators()
                return inner
            out = []
            for name, kind in names:
                out.append((prefix + name, "anon" if kind == "scalar" else kind))
                if kind == "scalar":
                    out += [(prefix + name + "." + p.lstrip("\0"), k)
                            for p, k in inner_probe]
            return out
        typ = []
        while self.peek() not in (";",) and not self.is_declarator_start():
            typ.append(self.take())
        names = self.declarators()
        out = []
        for name, kind in names:
            if kind == "scalar" and typ and typ[0] in ("struct", "union"):
                kind = "type:%s %s" % (typ[0], typ[1])
            elif kind in ("array", "flex") and typ and typ[0] in ("struct", "union"):
                kind = kind + ":%s %s" % (typ[0], typ[1])
            out.append((prefix + name, kind))
        return out

    def is_declarator_start(self):
        tok, nxt = self.peek(), self.peek(1)
        return (re.match(r"[A-Za-z_]\w*$", tok or "") is not None
                and nxt in (";", "[", ","))

    def declarators(self):
        names = []
        while self.peek() != ";":
            if self.peek() == ",":
                self.take()
                continue
            name = self.take()
            kind = "scalar"
            if self.peek() == "[":
                self.take()
                dims = []
                while self.peek() != "]":
                    dims.append(self.take())
                self.take("]")
                kind = "flex" if dims in ([], ["0"]) else "array"
            names.append((name, kind))
        self.take(";")
        return names


def parse_headers(paths):
    p_all = Parser([])
    consts, tags = [], []
    for path in paths:
        text = strip(open(path).read())
        consts += [d for d in defines(text) if not d.endswith("_H")]
        p = Parser(tokens(text))
        p.top()
        for name in p.order:
            p_all.types[name] = p.types[name]
            p_all.order.append(name)
        consts += p.enumerators
        tags += p.enum_tags
    return p_all, consts, tags


# Which check macro may stand for which kind of upstream member.
ALLOWED = {
    "scalar": ("M", "MAS", "SPLIT"),
    "array": ("A", "MAS", "SPLIT"),
    "flex": ("FLEX",),
    "anon": ("U", "UO"),
    "type": ("MT", "MAS", "KPTR"),
    "flex:": ("FLEXT",),
}
MACROS = ("BEGIN_GROUP", "END_GROUP", "M", "A", "MT", "U", "UO", "FLEX",
          "FLEXT", "MAS", "KPTR", "SPLIT", "INSIDE", "FLEX_AT", "K", "KSTR",
          "ENUM",
          "NOT_UVERBS")
# Lines for a reference that lacks one of our members: they check our
# member against theirs' surroundings and stand for no upstream member.
OURS_ONLY = ("INSIDE", "FLEX_AT")
SINCE = re.compile(r"#\s*if\s+OVB_REF_SINCE\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*$")


def select(text, ref):
    """The text as compiled for reference kernel ref (major, minor), and
    the text left out for it, both without preprocessor lines and each
    line in its place.  Only OVB_REF_SINCE() conditions are evaluated;
    other conditionals keep both branches."""
    kept, dropped, stack = [], [], []
    for line in text.split("\n"):
        s = line.strip()
        m = SINCE.match(s)
        if m:
            stack.append(ref >= (int(m.group(1)), int(m.group(2))))
        elif re.match(r"#\s*if", s):
            stack.append(None)
        elif re.match(r"#\s*else", s) and stack:
            if stack[-1] is not None:
                stack[-1] = not stack[-1]
        elif re.match(r"#\s*endif", s) and stack:
            stack.pop()
        elif re.match(r"#\s*elif", s):
            raise SystemExit("#elif is not supported in the table")
        elif s.startswith("#"):
            kept.append("")
            dropped.append("")
        else:
            (kept if False not in stack else dropped).append(line)
            (dropped if False not in stack else kept).append("")
    return "\n".join(kept), "\n".join(dropped)


def norm(text):
    return " ".join(text.split())


def parse_check(path, ref):
    """Groups as {upstream type: {upstream member: (macro, args)}}, the
    our-side types compared, the upstream constants K() checks, the enums
    ENUM() compares ({upstream tag: our tag}) and the NOT_UVERBS() names,
    as compiled for reference ref; and what the lines left out for ref
    name upstream, as (what, upstream type or None, upstream name)."""
    text, dropped = select(strip(open(path).read()), ref)
    groups, ours_types, consts = {}, set(), set()
    enums, elsewhere, absent = {}, [], []
    enums_elsewhere = set()    # ours, compared for other kernels only
    current = None
    pattern = r"\b(%s)\s*\(([^;]*?)\)\s*;" % "|".join(MACROS)
    # one pass over both texts in file order, so that groups enclose lines
    def where(t, m):          # both texts keep every line in its place
        return (t.count("\n", 0, m.start()), m.start())
    lines = [(where(text, m), True, m) for m in re.finditer(pattern, text)]
    lines += [(where(dropped, m), False, m)
              for m in re.finditer(pattern, dropped)]
    for _, kept, m in sorted(lines, key=lambda x: x[0]):
        macro = m.group(1)
        args = [norm(a) for a in m.group(2).split(",")]
        if macro == "BEGIN_GROUP":
            if current is not None:
                raise SystemExit("BEGIN_GROUP inside %s" % current)
            if not kept:
                raise SystemExit("a whole group may not be conditional")
            current = "%s %s" % (args[0], args[2])
            groups.setdefault(current, {})
            ours_types.add("%s %s" % (args[0], args[1]))
        elif macro == "END_GROUP":
            current = None
        elif macro in ("K", "KSTR") and kept:
            consts.add(args[1])
        elif macro in ("K", "KSTR"):
            absent.append(("constant", None, args[1]))
        elif macro == "ENUM" and kept:
            enums[args[1]] = args[0]
        elif macro == "ENUM":
            absent.append(("enum", None, args[1]))
            enums_elsewhere.add(args[0])
        elif macro == "NOT_UVERBS":
            elsewhere.append(args[0])
        elif current is None:
            raise SystemExit("%s outside a group: %s" % (macro, m.group(0)))
        elif macro in OURS_ONLY:
            pass
        else:
            name = args[1] if macro in ("MAS", "KPTR") else args[0]
            if kept:
                groups[current][name] = (macro, args)
            else:
                absent.append(("member", current, name))
            if macro == "UO":
                ours_types.add(args[1])
    if current is not None:
        raise SystemExit("%s has no END_GROUP" % current)
    return groups, ours_types, consts, enums, elsewhere, absent, \
        enums_elsewhere


def wrong_kind(kind, macro, args):
    """Why this check does not fit an upstream member of this kind, or None."""
    base = kind.split(":")[0] + (":" if kind.startswith("flex:") else "")
    if macro not in ALLOWED[base]:
        return "%s cannot check a member of kind %s" % (macro, kind)
    declared = kind.split(":", 1)[1] if ":" in kind else None
    if macro in ("MT", "FLEXT") and args[2] != declared:
        return "%s says %s, the header %s" % (macro, args[2], declared)
    return None


def main():
    argv = sys.argv[1:]
    ours_headers = []
    if len(argv) < 2 or argv[0] != "--ref":
        raise SystemExit(__doc__)
    ref = tuple(int(x) for x in argv[1].split(".")[:2])
    argv = argv[2:]
    if "--ours" in argv:
        i = argv.index("--ours")
        argv, ours_headers = argv[:i], argv[i + 1:]
    check, headers = argv[0], argv[1:]
    upstream, upstream_consts, upstream_tags = parse_headers(headers)
    groups, ours_types, consts, enums, elsewhere, absent, enums_elsewhere = \
        parse_check(check, ref)
    n, failed = 0, 0

    def result(ok, text):
        nonlocal n, failed
        n += 1
        failed += not ok
        print("%sok %d - %s" % ("" if ok else "not ", n, text))

    for name in upstream.order:
        members = upstream.types[name]
        if name not in groups:
            result(False, "%s has no group" % name)
            continue
        problems = []
        for path, kind in members:
            if path not in groups[name]:
                problems.append("%s unchecked" % path)
                continue
            why = wrong_kind(kind, *groups[name][path])
            if why:
                problems.append("%s: %s" % (path, why))
        if problems:
            result(False, "%s: %s" % (name, "; ".join(problems)))
        else:
            result(True, "%s: all %d members checked" % (name, len(members)))
    missing = [t for t in upstream_tags if t not in enums]
    if missing:
        result(False, "enums unchecked: %s" % ", ".join(missing))
    else:
        result(True, "all %d upstream enums checked" % len(upstream_tags))
    for c in elsewhere:
        print("# not uverbs ABI, left out: %s" % c)
    missing = [c for c in upstream_consts
               if c not in consts and c not in elsewhere]
    if missing:
        result(False, "constants unchecked: %s" % ", ".join(missing))
    else:
        result(True, "all %d upstream constants checked (%d of them not "
               "uverbs ABI)" % (len(upstream_consts), len(elsewhere)))
    # Lines left out for this kernel: what they name must be absent from
    # its headers, or checked by a line of its own.
    members = {t: {p for p, _ in upstream.types[t]} for t in upstream.order}
    present, missing_here, own = [], [], 0
    for what, group, name in absent:
        if what == "constant":
            has, checked = name in upstream_consts, name in consts
        elif what == "enum":
            has, checked = name in upstream_tags, name in enums
        else:
            has = name in members.get(group, ())
            checked = name in groups.get(group, {})
            name = "%s.%s" % (group, name)
        if not has:
            missing_here.append("%s %s" % (what, name))
        elif checked:
            own += 1
        else:
            present.append(name)
    if present:
        result(False, "Linux %d.%d has what lines for other kernels check, "
               "with no line for it: %s" % (ref + (", ".join(present),)))
    else:
        result(True, "lines for other kernels: %d name what Linux %d.%d "
               "lacks, %d what it checks with its own lines"
               % ((len(missing_here),) + ref + (own,)))
    for what in missing_here:
        print("# not in Linux %d.%d: %s" % (ref + (what,)))
    if ours_headers:
        ours, ours_consts, ours_tags = parse_headers(ours_headers)
        unchecked = [t for t in ours.order if t not in ours_types]
        if unchecked:
            result(False, "types of ours never compared: %s"
                   % ", ".join(unchecked))
        else:
            result(True, "all %d types of ours compared" % len(ours.order))
        compared = set(enums.values()) | enums_elsewhere
        for t in ours_tags:
            if t not in compared:     # upstream's enum is unnamed
                print("# ours only, no upstream counterpart: enum %s" % t)
        checked = set()
        for m in re.finditer(r"\bK(?:STR)?\s*\(\s*(\w+)",
                             strip(open(check).read())):
            checked.add(m.group(1))
        for c in ours_consts:
            if c not in checked:
                print("# ours only, no upstream counterpart: %s" % c)
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
