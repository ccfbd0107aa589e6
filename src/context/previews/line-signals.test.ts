import { describe, expect, it } from 'vitest';
import { lineSignal } from './line-signals.js';

describe('lineSignal', () => {
  it.each([
    ['2026-04-26T18:22:01Z ERROR request id=31337 deadlock detected', 3, 'ERROR'],
    ['081109 214043 2561 WARN dfs.DataNode$DataXceiver: Got exception while serving blk_1', 2, 'WARN'],
    [
      '2015-07-29 23:44:28,903 - ERROR [CommitProcessor:1:NIOServerCnxn@180] - Unexpected Exception',
      3,
      'ERROR',
    ],
    ['[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6', 3, '[error]'],
    ['npm warn Unknown user config "nodedir".', 2, 'warn'],
    ['Traceback (most recent call last):', 4, 'Traceback (most recent call last)'],
    ['ValueError: bad input for parse_header', 3, 'ValueError'],
    ['java.lang.IllegalStateException: closed', 3, 'java.lang.IllegalStateException'],
    ["src/parser.c:142:12: error: 'endptr' undeclared", 3, 'error:'],
    ['error[E0308]: mismatched types', 3, 'error[E0308]:'],
    ['not ok 41 - parses the empty header', 3, 'not ok'],
    ['      <failure>Error: abort: empty revision range', 3, '<failure'],
    ['# fail 51', 3, 'fail 51'],
    ['<testsuites name="jest tests" tests="4239" failures="2" errors="0">', 3, 'failures="2'],
    ['Process completed with exit code 1.', 3, 'exit code 1'],
    ['127.0.0.1 - - "GET /cart HTTP/1.1" 503 12', 3, 'HTTP/1.1" 503'],
    ['npm http fetch GET 404 https://registry.npmjs.org/nope 20ms', 2, 'GET 404'],
    ['{"level":"error","msg":"payment declined"}', 3, '"level":"error"'],
    ['03-02 10:17:31.500  4211  4211 E AndroidRuntime: FATAL EXCEPTION: main', 4, 'FATAL'],
    [
      '03-02 10:17:31.501  4211  4211 E AndroidRuntime: Process: com.example.shop, PID: 4211',
      3,
      'E AndroidRuntime',
    ],
    ['E/ActivityManager(  612): ANR in com.example.shop', 3, 'E/ActivityManager'],
    ['slurmstepd: error: Detected 1 oom_kill event in StepId=884213.0.', 4, 'oom_kill'],
    ['Cache not found for input keys: venv-Linux-443fe1c6', 1, 'not found'],
    ["Jul 11 11:33:17 combo gdm-binary[2803]: Couldn't authenticate user", 1, "Couldn't"],
  ])('%s → severity %i', (line, severity, signal) => {
    expect(lineSignal(line)).toEqual({ severity, signal });
  });

  it.each([
    '2026-04-26T18:22:01Z INFO request id=7 status=200 duration=12ms',
    'npm http fetch GET 200 https://registry.npmjs.org/express 55ms (cache updated)',
    '<testsuite name="normalize.test.js" errors="0" failures="0" skipped="0">',
    '    <testcase classname="other error toThrowErrorMatchingSnapshot" name="Received function did not throw">',
    '"failures": 0,',
    '/testbed/django/core/handlers/exception.py',
    '# pylint: disable=invalid-name, protected-access',
    '    except KeyError:',
    'npm verbose exit 0',
    "  failureType: 'testCodeFailure'",
    "  code: 'ERR_ASSERTION'",
  ])('%s → no signal', (line) => {
    expect(lineSignal(line)).toBeUndefined();
  });

  it('judges a very long line on its start and stays quick on any line', () => {
    expect(lineSignal(`ERROR ${'x'.repeat(1_000_000)}`)?.severity).toBe(3);
    expect(lineSignal(`${'x'.repeat(3000)} ERROR`)).toBeUndefined();
    expect(lineSignal('A'.repeat(100_000))).toBeUndefined();
  });
});
