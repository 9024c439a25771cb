/**
 * SeaweedFS as the stack's S3 server: one `weed server` process running master, volume
 * server, filer and S3 gateway, all on 127.0.0.1, data under state/s3, identities from
 * infra/s3/s3.identities.json, bucket `longhaul` created on every start when missing.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Component } from './component.types.mts';
import { goToolBinary } from './go-tool.build.mts';
import { goToolComponent } from './go-tool.component.mts';
import { answersOk } from './http.probe.mts';
import { say } from './progress.output.mts';
import { bucketExists, ensureBucket } from './s3.bucket.mts';
import { seaweedfsTool } from './seaweedfs.build.mts';
import type { StackConfig } from './stack.config.mts';

/** Largest volume file; small, so a dev disk is not claimed in 30 GB steps (SeaweedFS's default). */
const VOLUME_SIZE_LIMIT_MB = 1024;

function answersHealthz(config: StackConfig): Promise<boolean> {
  return answersOk(`${config.s3.url}/healthz`);
}

export const s3Component: Component = {
  name: 's3',
  dependsOn: [],
  startTimeoutMs: 90_000,
  stopSignal: 'SIGTERM',
  // A stop takes about 15 s: the filer keeps trying to flush its metadata log after the
  // volume server in the same process has stopped, then gives up (the objects are safe).
  stopGraceMs: 30_000,

  ...goToolComponent(seaweedfsTool),

  async prepare(config) {
    const stateDir = join(config.layout.state, 's3');
    const dataDir = join(stateDir, 'data');
    mkdirSync(dataDir, { recursive: true });
    const { ports, host } = config;
    return {
      command: goToolBinary(config, seaweedfsTool),
      args: [
        'server',
        `-dir=${dataDir}`,
        // -ip is also each part's address as the others dial it: loopback, never the host's IP.
        `-ip=${host}`,
        `-ip.bind=${host}`,
        `-master.port=${ports.seaweedMaster}`,
        `-master.port.grpc=${ports.seaweedMasterGrpc}`,
        // On by default, it would report to a server outside this machine.
        '-master.telemetry=false',
        `-master.volumeSizeLimitMB=${VOLUME_SIZE_LIMIT_MB}`,
        `-volume.port=${ports.seaweedVolume}`,
        `-volume.port.grpc=${ports.seaweedVolumeGrpc}`,
        // As many volumes as the free disk holds, instead of a fixed 8.
        '-volume.max=0',
        // The default 10 s pause before stopping serves load balancers; we have none.
        '-volume.preStopSeconds=0',
        `-filer.port=${ports.seaweedFiler}`,
        `-filer.port.grpc=${ports.seaweedFilerGrpc}`,
        '-s3',
        `-s3.port=${ports.s3}`,
        `-s3.port.grpc=${ports.s3Grpc}`,
        `-s3.config=${config.s3.identitiesFile}`,
        // Iceberg and Lance catalogs and the IAM API are on by default; we need only S3.
        '-s3.port.iceberg=0',
        '-s3.port.lance=0',
        '-s3.iam=false',
      ],
      cwd: stateDir,
      env: { ...process.env },
    };
  },

  isStarted: answersHealthz,

  async afterStart(config) {
    const outcome = await ensureBucket(config);
    if (outcome === 'created') say('s3', `bucket ${config.s3.bucket} created`);
  },

  async isHealthy(config) {
    return (await answersHealthz(config)) && (await bucketExists(config));
  },
};
