#!/usr/bin/env node
'use strict';
/**
 * Summarizes conformance runs from the checks.json files the suite writes with `-o DIR`
 * (one `server-<scenario>-<timestamp>/checks.json` per scenario): per run the exit code,
 * scenario and check counts, and for every failed check its scenario, check id, name and
 * reason (the suite's console output names failed checks but its summary drops the
 * reasons). Warnings are listed too, with their messages.
 *
 * Usage (run.sh builds this):
 *   node report.js --run <label> --command <text> --dir <dir> --exit <code> [--requirements <file.yaml>] ...
 *
 * With --requirements (a `requirements/<revision>.yaml` of the suite), scenarios under
 * `not_scored` are marked with their reason (extension | added-after-release | pending):
 * the suite runs them but they cannot fail the run.
 *
 * Exits 1 if any run exited non-zero or any scored check failed.
 */
const fs = require('node:fs');
const path = require('node:path');
const { createRequire } = require('node:module');

function parseArgs(argv) {
  const runs = [];
  let current;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--run') {
      current = { label: value, command: '', dir: '', exit: 0, requirements: undefined };
      runs.push(current);
      i++;
    } else if (current && ['--command', '--dir', '--exit', '--requirements'].includes(flag)) {
      if (value === undefined) throw new Error(`${flag} needs a value`);
      if (flag === '--exit') current.exit = Number(value);
      else current[flag.slice(2)] = value;
      i++;
    } else {
      throw new Error(
        `unexpected argument ${flag} (usage: --run <label> --command <text> --dir <dir> --exit <code> [--requirements <yaml>])`
      );
    }
  }
  return runs;
}

/** `not_scored` of a requirement set: scenario -> reason. */
function loadNotScored(file) {
  const map = new Map();
  if (!file) return map;
  const text = fs.readFileSync(file, 'utf8');
  let doc;
  try {
    // The suite's own YAML parser, from its install folder.
    doc = createRequire(file)('yaml').parse(text);
  } catch {
    // Fallback: the file's not_scored entries are simple "- scenario / leg / reason" blocks.
    doc = { not_scored: [] };
    const block = text.split(/^not_scored:\s*$/m)[1] ?? '';
    for (const entry of block.split(/^\s*-\s+scenario:\s*/m).slice(1)) {
      const scenario = entry.split('\n')[0].trim();
      const leg = /leg:\s*(\S+)/.exec(entry)?.[1];
      const reason = /reason:\s*(\S+)/.exec(entry)?.[1];
      doc.not_scored.push({ scenario, leg, reason });
    }
  }
  for (const entry of doc?.not_scored ?? []) {
    if (entry && entry.leg === 'server') map.set(entry.scenario, entry.reason);
  }
  return map;
}

const DIR_NAME = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

function loadScenarios(dir) {
  const scenarios = [];
  if (!fs.existsSync(dir)) return scenarios;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const match = DIR_NAME.exec(entry.name);
    const name = match ? match[1] : entry.name;
    const file = path.join(dir, entry.name, 'checks.json');
    let checks;
    let error;
    try {
      checks = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (!Array.isArray(checks)) throw new Error('not an array');
    } catch (e) {
      checks = [];
      error = `no readable checks.json (${e.message})`;
    }
    scenarios.push({ name, checks, error });
  }
  return scenarios.sort((a, b) => a.name.localeCompare(b.name));
}

function oneLine(text, max = 4000) {
  const flat = String(text)
    .replace(/\s*\n\s*/g, ' ⏎ ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max)}… (${flat.length - max} more characters)` : flat;
}

function reasonOf(check) {
  if (check.errorMessage) return oneLine(check.errorMessage);
  const details = check.details === undefined ? '' : ` details: ${oneLine(JSON.stringify(check.details), 1500)}`;
  return `${check.description ?? '(no description)'}${details}`;
}

function count(checks, status) {
  return checks.filter((c) => c.status === status).length;
}

function main() {
  const runs = parseArgs(process.argv.slice(2));
  if (runs.length === 0) {
    console.error('report.js: no runs given');
    process.exit(2);
  }
  let failed = false;
  const summary = [];
  const details = [];

  for (const run of runs) {
    const notScored = loadNotScored(run.requirements);
    const scenarios = loadScenarios(run.dir);
    const all = scenarios.flatMap((s) => s.checks);
    const isFailing = (s) => s.error !== undefined || s.checks.some((c) => c.status === 'FAILURE');
    const scored = scenarios.filter((s) => !notScored.has(s.name));
    const unscored = scenarios.filter((s) => notScored.has(s.name));
    const scoredFailing = scored.filter(isFailing);
    if (run.exit !== 0 || scoredFailing.length > 0) failed = true;

    const status = run.exit === 0 && scoredFailing.length === 0 ? 'PASS' : 'FAIL';
    summary.push(`${status}  ${run.label}  (exit ${run.exit})`);
    summary.push(`      ${run.command}`);
    summary.push(
      `      scenarios: ${scored.length - scoredFailing.length}/${scored.length} passing` +
        (unscored.length > 0 ? `; not scored: ${unscored.length - unscored.filter(isFailing).length}/${unscored.length} passing` : '')
    );
    summary.push(
      `      checks: ${count(all, 'SUCCESS')} passed, ${count(all, 'FAILURE')} failed, ${count(all, 'WARNING')} warnings` +
        `, ${count(all, 'INFO')} info, ${count(all, 'SKIPPED')} skipped`
    );
    const consoleLog = path.join(run.dir, 'console.log');
    if (fs.existsSync(consoleLog)) {
      // The suite's own totals, as a cross-check of the counts above.
      const lines = fs.readFileSync(consoleLog, 'utf8').split('\n');
      const own = lines.filter((l) => /^Total: \d+ passed/.test(l) || /^Not scored for /.test(l));
      if (own.length > 0) summary.push(`      suite: ${own.join(' | ')}`);
    }
    if (scenarios.length === 0) {
      summary.push(`      no results in ${run.dir}: the suite did not run (see ${path.join(run.dir, 'console.log')})`);
    }
    const failingNames = scenarios
      .filter(isFailing)
      .map((s) => (notScored.has(s.name) ? `${s.name} [not scored: ${notScored.get(s.name)}]` : s.name));
    if (failingNames.length > 0) summary.push(`      failing: ${failingNames.join(', ')}`);

    details.push('', `--- ${run.label}: failed checks ---`);
    let any = false;
    for (const scenario of scenarios) {
      const bad = scenario.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      if (bad.length === 0 && !scenario.error) continue;
      any = true;
      const tag = notScored.has(scenario.name) ? ` [not scored: ${notScored.get(scenario.name)}]` : '';
      details.push(`${scenario.name}${tag}`);
      if (scenario.error) details.push(`  ✗ ${scenario.error}`);
      for (const check of bad) {
        const mark = check.status === 'FAILURE' ? '✗' : '!';
        const label = check.status === 'FAILURE' ? '' : ' (warning)';
        details.push(`  ${mark} ${check.id} (${check.name ?? '?'})${label}: ${reasonOf(check)}`);
      }
    }
    if (!any) details.push('(none)');
    if (scenarios.length === 0 && fs.existsSync(path.join(run.dir, 'console.log'))) {
      const tail = fs.readFileSync(path.join(run.dir, 'console.log'), 'utf8').trim().split('\n').slice(-20);
      details.push('console.log (last lines):', ...tail.map((l) => `  ${l}`));
    }
  }

  console.log('=== MCP conformance summary ===');
  console.log(summary.join('\n'));
  console.log(details.join('\n'));
  console.log('');
  console.log(failed ? 'RESULT: FAIL' : 'RESULT: PASS');
  process.exit(failed ? 1 : 0);
}

main();
