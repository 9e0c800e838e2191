// Typed usage of the host side and install surfaces (checked by tsc, never run).
import {
  AgentHooksError,
  doctor,
  hostRun,
  install,
  matcherTest,
  uninstall,
  type DiagCode,
  type HostError,
  type HostRunResult,
  type InstallTarget,
  type MatcherError,
} from 'agenthooks'

export function hostSide(settings: string): string | undefined {
  let r: HostRunResult
  try {
    r = hostRun({
      dialect: 'claude-code',
      configs: [{ source: 'settings.json', text: settings }, { path: '/etc/settings.json' }],
      event: { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } },
      defaultTimeoutS: 5,
      sequential: true,
      strict: true,
    })
  } catch (e) {
    if (e instanceof AgentHooksError) {
      const he = e as HostError
      for (const d of he.diagnostics ?? []) console.error(d.code, d.severity, d.reason)
    }
    throw e
  }
  const perEvent: DiagCode[] = ['matcher_undecided', 'cwd_missing']
  const undecided = r.warnings.filter((d) => perEvent.includes(d.code))
  console.log(undecided.length)
  const codes: (number | null)[] = r.hooks.map((h) => h.exit_code)
  console.log(codes, r.subjects.join(','), r.warnings.length)
  const reason = r.outcome['reason']
  return typeof reason === 'string' ? reason : undefined
}

export function matchers(): boolean[] {
  try {
    return matcherTest('codex', '(?i)^bash$', ['BASH'])
  } catch (e) {
    const code: DiagCode | undefined = (e as MatcherError).diagnostic?.code
    console.error(code)
    return []
  }
}

export function installs(project: string): boolean {
  const target: InstallTarget = { agent: 'claude-code', scope: 'project', project, dryRun: true }
  const res = install('id = "g"\nprogram = "/g"\n', target).results[0]
  if (res && 'error' in res) return false
  uninstall({ id: 'g', program: '/g' }, { ...target, dryRun: false })
  return doctor({ project, run: false }).agents.length > 0 && (res?.changed ?? false)
}
