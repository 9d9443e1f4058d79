// The standalone dev host (`npm run dev`): this remote's pages without the shell (shared-contracts/dev-host).
import { startDevHost } from 'shared-contracts/dev-host';
import { remote } from '../remote';

void startDevHost(remote);
