#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""rdma-core's own unittest suite: run it, one verdict per case; report it.

  rdma_core_pytests.py run TESTS_DIR RESULTS [--case-timeout S]
                       [--dev D] [--port P] [--gid G] [NAME...]
  rdma_core_pytests.py list TESTS_DIR [NAME...]
  rdma_core_pytests.py tap CASES RESULTS FIRST [OTHER-RESULTS OTHER-NAME]
  rdma_core_pytests.py compare RESULTS NAME OTHER-RESULTS OTHER-NAME

run: TESTS_DIR is rdma-core's tests/ directory, unpacked (Debian's
python3-pyverbs ships it gzipped under /usr/share/doc/rdma-core/tests; the
selftests build unpacks it).  NAME selects test modules (test_cq) or cases
by id prefix (test_cq.CQTest); without one, every case runs.
--dev/--port/--gid go to the suite's own argument parser.  RESULTS gets one
line per case, "pass|fail|skip TAB id TAB reason", in the order the cases
ran; RESULTS.tb each failure's traceback under a "== id" line.  A case
still running after --case-timeout seconds (default 180) fails with "timed
out".  Exit status 0 when the suite ran, whatever its verdicts, 2 when it
could not load.

list: the ids of the cases run would run, one a line.

tap: one TAP 13 line per case of CASES (numbered from FIRST), with its
verdict in RESULTS: ok, ok # SKIP reason, not ok with the traceback, not
ok "no verdict" for a case the run never finished.  A case that failed and
failed the same way in OTHER-RESULTS (the other stack's run) is "not ok
... # TODO", a known failure.

compare: every case whose verdict or reason differs between the two
results, with both tracebacks; exit status 1 when there is one.  Cases in
TIMING_DEPENDENT (their verdict follows the driver's timing on this
kernel) are told, not compared, and their failures are TODO in tap.
"""

import argparse
import random
import zlib
import importlib.util
import os
import signal
import sys
import time
import traceback
import unittest


class CaseTimeout(Exception):
    pass


def on_alarm(signum, frame):
    raise CaseTimeout('timed out')


def one_line(text):
    return ' '.join(str(text).split())


def reason_of(exc):
    """The exception's last line, and the one it was raised while handling
    (a bare assert on an error's text says nothing about the error)."""
    reason = traceback.format_exception_only(type(exc), exc)[-1].strip()
    if exc.__context__ is not None and not exc.__suppress_context__:
        reason += f' (while handling {reason_of(exc.__context__)})'
    return reason


class VerdictRecorder(unittest.TestResult):
    """Writes each case's verdict as soon as the case has finished."""

    def __init__(self, results, tracebacks, case_timeout):
        super().__init__()
        self.results = results
        self.tracebacks = tracebacks
        self.case_timeout = case_timeout
        self.verdict = None

    def startTest(self, test):
        super().startTest(test)
        self.verdict = ('pass', '')
        # The suite draws QP masks and sizes from `random`: the same draws
        # for a case on both stacks, so their verdicts can be compared.
        random.seed(zlib.crc32(test.id().encode()))
        self.started = time.monotonic()
        signal.alarm(self.case_timeout)

    def stopTest(self, test):
        signal.alarm(0)
        status, reason = self.verdict
        self.results.write(f'{status}\t{test.id()}\t{one_line(reason)}\n')
        self.results.flush()
        self.verdict = None
        print(f'{status} {test.id()} ({time.monotonic() - self.started:.1f} s)',
              file=sys.stderr, flush=True)
        super().stopTest(test)

    def failed(self, test, err, subtest=None):
        self.verdict = ('fail', reason_of(err[1]))
        self.tracebacks.write(f'== {test.id()}\n')
        if subtest is not None:
            self.tracebacks.write(f'{subtest.id()}\n')
        self.tracebacks.write(''.join(traceback.format_exception(*err)))
        self.tracebacks.flush()

    def addError(self, test, err):
        super().addError(test, err)
        if self.verdict is None:	# setUpClass/setUpModule: no case running
            self.startTest(test)
            self.failed(test, err)
            self.stopTest(test)
        else:
            self.failed(test, err)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.failed(test, err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        if self.verdict is None:
            self.startTest(test)
            self.verdict = ('skip', reason)
            self.stopTest(test)
        else:
            self.verdict = ('skip', reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.verdict = ('pass', 'expected failure')

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.verdict = ('fail', 'unexpected success')

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self.failed(test, err, subtest)


def load_suite(tests_dir):
    """Import TESTS_DIR as the package "tests" (its modules import
    tests.base, tests.utils) with its args_parser importable, as its
    run_tests.py does."""
    sys.path.insert(0, tests_dir)
    spec = importlib.util.spec_from_file_location(
        'tests', os.path.join(tests_dir, '__init__.py'),
        submodule_search_locations=[tests_dir])
    package = importlib.util.module_from_spec(spec)
    sys.modules['tests'] = package
    spec.loader.exec_module(package)
    return unittest.defaultTestLoader.loadTestsFromModule(package)


def cases_of(suite):
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from cases_of(item)
        else:
            yield item


def selected(case, names):
    if not names:
        return True
    return any(case.id() == f'tests.{n}' or case.id().startswith(f'tests.{n}.')
               for n in names)



def read_results(path):
    """{id: (status, reason)} and {id: traceback} of one run."""
    verdicts, tracebacks = {}, {}
    with open(path) as f:
        for line in f:
            status, case, reason = (line.rstrip('\n').split('\t') + ['', ''])[:3]
            verdicts[case] = (status, reason)
    current = None
    if os.path.exists(path + '.tb'):
        with open(path + '.tb') as f:
            for line in f:
                if line.startswith('== '):
                    current = line[3:].rstrip('\n')
                elif current is not None:
                    tracebacks[current] = tracebacks.get(current, '') + line
    return verdicts, tracebacks


def commented(text, indent='# '):
    return ''.join(f'{indent}{line}\n' for line in text.rstrip('\n').split('\n'))


def tap(cases_file, results, first, other=None, other_name=None):
    with open(cases_file) as f:
        cases = [line.strip() for line in f if line.strip()]
    verdicts, tracebacks = read_results(results)
    other_verdicts = read_results(other)[0] if other else {}
    # A failed or skipped setUpClass/setUpModule is the verdict of each case
    # under it (unittest runs none of them and reports the fixture alone).
    fixtures = {c: c[c.index('(') + 1:-1] for c in verdicts if c.startswith('setUp')}
    for table in (verdicts, other_verdicts, tracebacks):
        for fixture, scope in fixtures.items():
            for case in cases:
                if case.startswith(scope + '.') and fixture in table:
                    table.setdefault(case, table[fixture])
    cases += [c for c in verdicts if c not in cases and c not in fixtures]
    n = first
    for case in cases:
        name = case[len('tests.'):] if case.startswith('tests.') else case
        status, reason = verdicts.get(case, ('none', ''))
        if status == 'pass':
            print(f'ok {n} {name}')
        elif status == 'skip':
            print(f'ok {n} {name} # SKIP {reason}')
        elif status == 'fail' and case in TIMING_DEPENDENT:
            print(f'not ok {n} {name} # TODO timing-dependent: {TIMING_DEPENDENT[case]}')
            sys.stdout.write(commented(tracebacks.get(case, reason)))
        elif status == 'fail' and other_verdicts.get(case) == (status, reason):
            print(f'not ok {n} {name} # TODO fails the same way on the {other_name} '
                  f'ib_uverbs: {reason}')
            sys.stdout.write(commented(tracebacks.get(case, reason)))
        elif status == 'fail':
            print(f'not ok {n} {name}')
            sys.stdout.write(commented(tracebacks.get(case, reason)))
        else:
            print(f'not ok {n} {name}')
            print('# no verdict: the run stopped before this case ended')
        n += 1
    return 0


def kernel_at_least(major, minor):
    release = os.uname().release.split('-')[0].split('.')
    return tuple(int(x) for x in release[:2]) >= (major, minor)


# Cases whose verdict follows the HCA driver's timing, not ib_uverbs: their
# failures are TODO on either stack and a different verdict is not compared.
TIMING_DEPENDENT = {
    'tests.test_cq.CQTest.test_resize_cq':
        "rxe runs the test's sends from a workqueue since 6.12 (the likely cause); "
        'shrinking the CQ below them fails only once they completed' if kernel_at_least(6, 12) else None,
}
TIMING_DEPENDENT = {c: why for c, why in TIMING_DEPENDENT.items() if why}


def compare(results, name, other, other_name):
    mine, my_tracebacks = read_results(results)
    theirs, their_tracebacks = read_results(other)
    differ = sorted(c for c in set(mine) | set(theirs) if mine.get(c) != theirs.get(c))
    for case in [c for c in differ if c in TIMING_DEPENDENT]:
        differ.remove(case)
        print(f'{case}: {name} {mine.get(case, ("none",))[0]}, {other_name} '
              f'{theirs.get(case, ("none",))[0]}: not compared ({TIMING_DEPENDENT[case]})')
    for case in differ:
        print(f'{case}:')
        for side, verdicts, tracebacks in ((name, mine, my_tracebacks),
                                           (other_name, theirs, their_tracebacks)):
            status, reason = verdicts.get(case, ('none', 'no verdict'))
            print(f'  {side}: {status}' + (f' ({reason})' if reason else ''))
            if case in tracebacks:
                sys.stdout.write(commented(tracebacks[case], '    '))
    return 1 if differ else 0


def run(argv, list_only):
    ours = argparse.ArgumentParser(add_help=False)
    ours.add_argument('tests_dir')
    if not list_only:
        ours.add_argument('results')
    ours.add_argument('--case-timeout', type=int, default=180)
    args, rest = ours.parse_known_args(argv)
    # The rest (--dev, --port, --gid, names) is for the suite's own parser,
    # which reads sys.argv and leaves what it does not know there.
    sys.argv[1:] = rest
    sys.path.insert(0, args.tests_dir)
    from args_parser import parser
    parser.parse_args()
    names = [a for a in sys.argv[1:] if not a.startswith('-')]
    try:
        suite = load_suite(args.tests_dir)
    except Exception:
        traceback.print_exc()
        return 2
    cases = [c for c in cases_of(suite) if selected(c, names)]
    if list_only:
        for c in cases:
            print(c.id())
        return 0
    signal.signal(signal.SIGALRM, on_alarm)
    with open(args.results, 'w') as results, open(args.results + '.tb', 'w') as tbs:
        recorder = VerdictRecorder(results, tbs, args.case_timeout)
        unittest.TestSuite(cases).run(recorder)
    return 0


def main():
    command, argv = (sys.argv[1:2] or [''])[0], sys.argv[2:]
    if command in ('run', 'list'):
        return run(argv, command == 'list')
    if command == 'tap' and len(argv) in (3, 5):
        return tap(argv[0], argv[1], int(argv[2]), *argv[3:])
    if command == 'compare' and len(argv) == 4:
        return compare(*argv)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main())
