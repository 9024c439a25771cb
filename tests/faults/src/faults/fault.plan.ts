import { EventTypes, Topics } from '@longhaul/contracts';
import type { FaultRunConfig } from '../fault-run.config';
import { BaselineFault } from './baseline.fault';
import { ComponentOutageFault } from './component-outage.fault';
import type { Fault } from './fault.types';
import { MalformedMessagesFault } from './malformed-messages.fault';
import { ProcessKillFault } from './process-kill.fault';
import { ProcessPauseFault } from './process-pause.fault';

/**
 * The faults in the order they are injected, one at a time: each is cleared and its probe
 * completed before the next starts, so recoveries never overlap and each time to recover is
 * that fault's own. Process faults alternate instances and sit between the stack outages.
 */
export function faultPlan(config: FaultRunConfig): Fault[] {
  return [
    new BaselineFault(),
    new ProcessKillFault('transcoder-1', 'transcoder'),
    new ProcessPauseFault('thumbnailer-1', 'thumbnailer', config.leaseMs * config.pauseLeaseFactor),
    new ComponentOutageFault('connect', config.outageMs, true),
    new ProcessKillFault('transcoder-2', 'transcoder'),
    new ComponentOutageFault('kafka', config.outageMs, true),
    new MalformedMessagesFault([
      { topic: Topics.jobEvents, validType: EventTypes.StepCompletedV1 },
      { topic: Topics.transcodeRequestsFast, validType: EventTypes.TranscodeRequestedV1 },
    ]),
    new ComponentOutageFault('postgres', config.postgresDownMs, false),
    new ProcessKillFault('transcoder-1', 'transcoder'),
  ];
}
