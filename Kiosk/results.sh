# Sourced by Kiosk/test.sh and the VM scripts: how a run's results are read, so that a crashed, cut-short or
# shrunken run can never read as green. Each function prints its counts on stdout and says on stderr why it
# added a failure. ResultCountingTests runs both on made-up logs.

# xctest_counts LOG EXIT: "PASSED FAILED SKIPPED", counted as test cases ("Test Case 'C.t' passed (…)"), not
# from XCTest's "with N failures", which counts failed assertions. The log must hold the "All tests" suite's
# end and its "Executed N tests" line with N equal to the cases counted (XCTest that dies part way prints
# neither, or a suite's line only); a non-zero EXIT with no failed case counts as one failure.
xctest_counts() {
  local log=$1 rc=$2 passed failed skipped summary total
  passed=$(grep -cE "^Test Case '[^']+' passed \(" "$log" || true)
  failed=$(grep -cE "^Test Case '[^']+' failed \(" "$log" || true)
  skipped=$(grep -cE "^Test Case '[^']+' skipped \(" "$log" || true)
  summary=$(grep -A1 -E "^Test Suite 'All tests' (passed|failed) at" "$log" | grep -E '^[[:space:]]*Executed [0-9]+ tests?, with' \
    | tail -n 1 || true)
  if [ -z "$summary" ]; then
    echo "results: no \"All tests\" summary in the XCTest log (it died, or never ran)" >&2
    failed=$((failed + 1))
  else
    total=$(grep -oE 'Executed [0-9]+' <<<"$summary" | grep -oE '[0-9]+')
    if [ "$total" != $((passed + failed + skipped)) ]; then
      echo "results: XCTest executed $total tests, but the log has $passed passed, $failed failed and $skipped skipped" >&2
      failed=$((failed + 1))
    fi
  fi
  if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then
    echo "results: XCTest exited $rc with no failed test case" >&2
    failed=1
  fi
  echo "$passed $failed $skipped"
}

# judge_checks FILE EXIT EXPECTED NAME: "PASSED FAILED" for a checker that prints `PASS name: …`/`FAIL name: …`
# lines and ends with `[prefix: ]N passed, M failed`, run with exit status EXIT. One failure is added when the
# checker crashed (non-zero exit with no FAIL line, or no summary line: every check after the crash is missing),
# when its summary disagrees with its lines, or when it ran a number of checks other than EXPECTED (a step that
# silently stopped checking). NAME names it in the reason.
judge_checks() {
  local file=$1 rc=$2 expected=$3 name=$4 passed failed extra=0 line
  passed=$(grep -c '^PASS ' "$file" 2>/dev/null || true)
  failed=$(grep -c '^FAIL ' "$file" 2>/dev/null || true)
  passed=${passed:-0} failed=${failed:-0}
  line=$(grep -E '^([^ ]+: )?[0-9]+ passed, [0-9]+ failed$' "$file" 2>/dev/null | tail -n 1 || true)
  if [ -z "$line" ]; then
    echo "FAIL $name checker: no summary line (it crashed or was cut off after $((passed + failed)) checks; exit $rc)" >&2
    extra=$((extra + 1))
  elif [ "${line#*: }" != "$passed passed, $failed failed" ]; then
    echo "FAIL $name checker: its summary '$line' disagrees with its $passed PASS and $failed FAIL lines" >&2
    extra=$((extra + 1))
  elif [ "$rc" != 0 ] && [ "$failed" = 0 ]; then
    echo "FAIL $name checker: exit $rc with every check passed" >&2
    extra=$((extra + 1))
  fi
  if [ $((passed + failed)) != "$expected" ]; then
    echo "FAIL $name checker: $((passed + failed)) checks ran, $expected expected (a step stopped checking, or the list changed)" >&2
    extra=$((extra + 1))
  fi
  echo "$passed $((failed + extra))"
}
