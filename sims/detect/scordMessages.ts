// The ScoRD detector's words: what a race message says, by category, and what it advises.
import type { Range } from '../frontend/source';
import type { Scope } from '../gpu/memoryOrder';
import { accessName, accessorName, atomicName, type AccessSummary, type Accessor, type LockFault, type OrderHint, type RaceCategory, type RaceFinding } from './findings';

export function raceMessage(category: RaceCategory, current: AccessSummary, earlier: AccessSummary, me: Accessor, them: Accessor, address: string | undefined, narrowFence?: Range, hint?: OrderHint, held?: RaceFinding['heldLocks'], lockByExchange?: boolean): string {
  const what = `${accessName(current)}${address ? ` of \`${address}\`` : ''} ${accessorName(me, them)}`;
  const other = `the ${accessName(earlier)} at line ${earlier.range.start.line + 1} ${accessorName(them, me)}`;
  const line = (r: Range) => r.start.line + 1;
  // A write after a read: the reader has to let the writer go (fence, then a flag it waits for).
  const afterRead = current.write && !earlier.write;
  // An atomic and a store that is not atomic: the store should be atomic too.
  const plainStore = current.atomic ? (!earlier.atomic && earlier.write ? earlier : undefined) : earlier.atomic && current.write ? current : undefined;
  // A plain read of what an atomic writes: it synchronises with nothing.
  const plainRead = current.atomic ? (!earlier.atomic && !earlier.write && !earlier.strong ? earlier : undefined) : earlier.atomic && !current.write && !current.strong ? current : undefined;
  const mixed = plainStore
    ? `the ${accessName(plainStore)} at line ${line(plainStore.range)} is not atomic, so the value that stays is undefined; make it an \`atomicExch\` (or order the two)`
    : plainRead && `the ${accessName(plainRead)} at line ${line(plainRead.range)} is neither volatile nor atomic, so it synchronises with nothing, and a loop polling it may never see the atomic's value; read it through a volatile lvalue or with an atomic`;
  const deviceScope = 'give it device scope (`cuda::thread_scope_device`, `.gpu`)';
  const orderAdvice = !hint
    ? undefined
    : hint.kind === 'relaxed-read'
      ? `the read at line ${line(hint.read!)} sees the release at line ${line(hint.release!)} but is relaxed and no acquire fence follows it; make it an acquire (\`memory_order_acquire\`, \`ld.acquire\`)`
      : hint.release && hint.acquire
        ? `the release at line ${line(hint.release)} and the acquire at line ${line(hint.acquire)} have block scope, so they order nothing across blocks; give them device scope (\`cuda::thread_scope_device\`, \`.gpu\`)`
        : hint.release
          ? `the release at line ${line(hint.release)} has block scope, so it publishes the write only to block ${them.block}; ${deviceScope}`
          : `the acquire at line ${line(hint.acquire!)} has block scope, so it synchronises only with block ${me.block}; ${deviceScope}`;
  // An ordered access of block scope (atomic_ref<T, thread_scope_block>, .cta) named by its order.
  const narrowOrdered = current.order?.scope === 'block' ? current : earlier.order?.scope === 'block' ? earlier : undefined;
  const advice: Record<RaceCategory, string> = {
    'missing-block-fence': afterRead
      ? `nothing orders the read before this write; the reader should \`__threadfence_block()\` and raise a flag this write waits for, or put a \`__syncthreads()\` between them`
      : `nothing orders them; add \`__threadfence_block()\` after the write (and publish it with a flag), or a \`__syncthreads()\` between them`,
    'missing-device-fence': narrowFence
      ? `\`__threadfence_block()\` at line ${line(narrowFence)} orders it only for block ${them.block}; use \`__threadfence()\``
      : afterRead
        ? `nothing orders the read before this write across blocks; the reader should \`__threadfence()\` and raise a flag this write waits for`
        : `nothing orders them across blocks; add \`__threadfence()\` after the write and publish it with a flag`,
    'non-strong-access': `a fence orders only volatile or atomic accesses, and the ${!current.strong ? accessName(current) : accessName(earlier)} is neither; make ${address ? `\`${address.replace(/[[.].*$/, '')}\`` : 'the data'} volatile or use atomics`,
    'scoped-atomic': narrowOrdered
      ? `the ${accessName(narrowOrdered)} at line ${line(narrowOrdered.range)} has block scope, so it is atomic only within its own block; ${deviceScope}`
      : `a \`_block\` atomic is atomic only within its own block; use the device-scope ${current.atomic?.scope === 'block' ? `\`${atomicName({ ...current.atomic, scope: 'device' })}\`` : earlier.atomic ? `\`${atomicName({ ...earlier.atomic, scope: 'device' })}\`` : 'atomic'}`,
    'missing-lock': missingLockAdvice(held, current, earlier),
    'lock-fence-scope': `the lock they both take is not held: a fence of its scope must follow the \`atomicCAS\``,
    'lock-release-fence': `the lock they both take is released with no fence before the \`atomicExch\``,
    'lock-scope': lockByExchange
      ? `both hold the lock, but it was taken with \`atomicExch_block\`, which makes it a different lock in each block; use \`atomicExch\``
      : `both hold the lock, but it was taken with \`atomicCAS_block\`, which makes it a different lock in each block; use \`atomicCAS\` and \`atomicExch\``,
    'shared-memory': me.warp === them.warp ? `lanes of one warp that went separate ways, and no \`__syncwarp()\` (or \`__syncthreads()\`) separates them` : `no \`__syncthreads()\` separates them`,
    'intra-warp': `two lanes of one warp, and since Volta the lanes of a warp are not in lockstep; put a \`__syncwarp()\` between them`,
    'benign-same-value': `both leave ${address ? `\`${address}\`` : 'the word'} holding ${current.value === undefined ? 'the same value' : current.value > 0xffff ? `0x${current.value.toString(16)}` : current.value}, which is harmless on today's GPUs but undefined in CUDA's memory model`,
  };
  const fenceCategory = category === 'missing-block-fence' || category === 'missing-device-fence';
  // Two threads at one plain store, or one read-modify-write (`hist[b]++`): no fence, barrier or
  // __syncwarp() can come between them; what they need is their own words or an atomic.
  const oneSite = !current.atomic && !earlier.atomic && sameSite(current.range, earlier.range) && PLAIN_CONFLICTS.has(category);
  const siteAdvice = !oneSite
    ? undefined
    : current.write && earlier.write
      ? `both are this one store, so which value stays is undefined (in lockstep too); give each thread its own element, let one thread store it, or use \`atomicExch\``
      : `both are this one read-modify-write, which is not atomic: threads read the same old value and updates are lost; use an atomic (\`atomicAdd\` for \`+=\` and \`++\`)`;
  return `${what} races with ${other}: ${orderAdvice ?? siteAdvice ?? (fenceCategory && !narrowFence && mixed ? mixed : advice[category])}`;
}

/** Categories of plain accesses that nothing orders, whose advice is to order them. */
const PLAIN_CONFLICTS: ReadonlySet<RaceCategory> = new Set(['missing-block-fence', 'missing-device-fence', 'non-strong-access', 'shared-memory', 'intra-warp']);

function sameSite(a: Range, b: Range): boolean {
  return a.file === b.file && a.start.line === b.start.line && a.start.character === b.start.character;
}

/** What to do about two accesses without a common lock, as far as the locks each held say. */
function missingLockAdvice(held: RaceFinding['heldLocks'], current: AccessSummary, earlier: AccessSummary): string {
  const line = (r: Range) => r.start.line + 1;
  const mine = held?.current[0];
  const theirs = held?.earlier[0];
  if (mine && theirs) {
    return line(mine.acquire) === line(theirs.acquire)
      ? `they hold different locks, taken by the code at line ${line(mine.acquire)} on different words; take the same one around both`
      : `they hold different locks (taken at lines ${line(mine.acquire)} and ${line(theirs.acquire)}); take the same one around both`;
  }
  if (theirs) return `the ${accessName(earlier)} holds the lock taken at line ${line(theirs.acquire)} and this one holds none; take that lock around this ${accessName(current)} too`;
  if (mine) return `this ${accessName(current)} holds the lock taken at line ${line(mine.acquire)} and the ${accessName(earlier)} holds none; take that lock around the ${accessName(earlier)} too`;
  return `they hold no common lock; take the same lock around both`;
}

/** The atomicExch of a scope: what unlocks a lock of that scope, or stores into a word atomics of that scope use. */
export function lockExchange(scope: Scope): string {
  return atomicName({ op: 'Exch', scope });
}

/** The fence a lock of this scope needs after its atomicCAS and before its atomicExch. */
export function lockFence(scope: Scope): string {
  return scope === 'block' ? '__threadfence_block()' : scope === 'system' ? '__threadfence_system()' : '__threadfence()';
}

export function brokenLockMessage(faults: LockFault[], current: AccessSummary, earlier: AccessSummary, me: Accessor, them: Accessor, address: string | undefined): string {
  const line = (r: Range) => r.start.line + 1;
  const first = faults[0];
  const fence = lockFence(first.scope);
  const cas = first.scope === 'block' ? 'atomicCAS_block' : 'atomicCAS';
  const race = `the ${accessName(current)}${address ? ` of \`${address}\`` : ''} at line ${line(current.range)} ${accessorName(me, them)} races with the ${accessName(earlier)} at line ${line(earlier.range)} ${accessorName(them, me)}`;
  const releases = faults.filter((f) => f.kind === 'release' && f !== first);
  const alsoRelease = releases.length ? `, and before the \`atomicExch\` at line ${releases.map((f) => line(f.release!)).join(', ')}` : '';
  if (first.kind === 'release' && first.plainStore) {
    const exch = lockExchange(first.scope);
    return `the plain store at line ${line(first.release!)} releases the lock, and a fence orders only volatile or atomic accesses, so the critical section's accesses may become visible after the next holder's: ${race}; release it with \`${exch}\`${first.plainStore.fenced ? '' : ` after \`${fence};\``}`;
  }
  if (first.kind === 'release') {
    return `the \`atomicExch\` at line ${line(first.release!)} releases the lock with no fence before it, so the critical section's accesses may become visible after the next holder's: ${race}; insert \`${fence};\` before the unlock`;
  }
  if (first.fence) {
    return `the fence at line ${line(first.fence)} after the \`${cas}\` at line ${line(first.acquire)} is narrower than the lock (${first.scope} scope), so the lock is not held: ${race}; use \`${fence}\`${alsoRelease ? ` there${alsoRelease}` : ''}`;
  }
  return `no fence follows the \`${cas}\` at line ${line(first.acquire)}, so the lock is not held: ${race}; insert \`${fence};\` after the loop that takes the lock${alsoRelease}`;
}
