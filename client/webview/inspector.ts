// The metadata inspector's webview script. It talks to the extension only through
// postMessage and renders what it is sent; until race analysis reports metadata it shows the
// kernels of the active file.
interface ShowMessage {
  type: 'show';
  file: string;
  kernels: { name: string; params: string[] }[];
}

function render(root: HTMLElement, msg: ShowMessage): void {
  root.replaceChildren();
  const title = document.createElement('h2');
  title.textContent = msg.file;
  root.append(title);
  const list = document.createElement('ul');
  for (const k of msg.kernels) {
    const item = document.createElement('li');
    item.textContent = `${k.name}(${k.params.join(', ')})`;
    list.append(item);
  }
  root.append(list);
}

window.addEventListener('message', (event: MessageEvent<ShowMessage>) => {
  const root = document.getElementById('root');
  if (root && event.data?.type === 'show') render(root, event.data);
});
