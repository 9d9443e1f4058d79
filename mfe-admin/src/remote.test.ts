import { describeRemoteContract } from 'shared-contracts/testing';
import { remote } from './remote';

describeRemoteContract(remote, 'mfe-admin');
