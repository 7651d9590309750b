// What a launch ran with, in words a CUDA programmer reads at a glance:
// `countEvents<<<4,128>>>(values: int[512], n = 512)`. No imports: the inspector's webview
// shows these too (./describeLaunch.ts makes them from a launch).

export type Dim3 = [number, number, number];

export interface LaunchDescription {
  kernel: string;
  grid: Dim3;
  block: Dim3;
  /** One per parameter: `values: int[512]`, `n = 512`. */
  args: string[];
}

/** `2`, `4,2` or `4,2,3`: the dimensions a launch was written with (trailing 1s left out). */
export function dimText(d: Dim3): string {
  const n = d[2] !== 1 ? 3 : d[1] !== 1 ? 2 : 1;
  return d.slice(0, n).join(',');
}

export function launchText(d: LaunchDescription): string {
  return `${d.kernel}<<<${dimText(d.grid)},${dimText(d.block)}>>>(${d.args.join(', ')})`;
}
