/**
 * The stdio bridge an agent without HTTP MCP support runs as its "editor" MCP server (a small program in the
 * .vsix, run with the editor's own Node via ELECTRON_RUN_AS_NODE): it connects to the editor's local socket or
 * pipe, says the token, and then copies bytes both ways until either side closes. Only Node built-ins.
 */
import { connect } from 'node:net';
import { BRIDGE_ENV } from './bridge-env';

const address = process.env[BRIDGE_ENV.address];
const token = process.env[BRIDGE_ENV.token];
if (!address || !token) {
  process.stderr.write(`editor tools bridge: ${BRIDGE_ENV.address} and ${BRIDGE_ENV.token} must be set\n`);
  process.exit(2);
}
// Not passed on to anything this process might start.
delete process.env['ACP_EDITOR_TOOLS_TOKEN'];

const socket = connect(address, () => {
  socket.write(`${token}\n`);
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
});
socket.on('error', (error) => {
  process.stderr.write(`editor tools bridge: cannot reach the editor (${error.message}); is it still running?\n`);
  process.exit(1);
});
socket.on('close', () => process.exit(0));
process.stdin.on('end', () => socket.end());
