import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { probeMedia } from '@longhaul/media';
import type { DataSource } from '@longhaul/persistence';
import { DATA_SOURCE } from '@longhaul/platform';
import { BLOB_STORE, createBlobStore, type BlobStore } from '@longhaul/storage';
import { MEDIA_INTAKE } from '../create-job/media-intake.port';
import type { IntakeModuleOptions } from './intake.options';
import { MediaInspector } from './media.inspector';
import { MediaIntakeService } from './media-intake.service';
import { SourceFetcher } from './source.fetcher';
import { StagedSourceRepository } from './staged-source.repository';
import { DEFAULT_UPLOAD_MAX_BYTES } from './upload.policy';
import { UploadRepository } from './upload.repository';
import { UploadService } from './upload.service';

/**
 * Media coming in: `UploadService` (`POST /v1/uploads`), `MediaIntakeService` (a job's source at
 * submit, also provided as `MEDIA_INTAKE`) and the `BLOB_STORE` they write to, exported for
 * whatever else serves or reads blobs. Needs the global `CoreModule` (the data source).
 */
@Module({})
export class IntakeModule implements OnApplicationShutdown {
  constructor(@Inject(SourceFetcher) private readonly fetcher: SourceFetcher) {}

  static forRoot(options: IntakeModuleOptions): DynamicModule {
    const maxBytes = options.uploadMaxBytes ?? DEFAULT_UPLOAD_MAX_BYTES;
    return {
      module: IntakeModule,
      providers: [
        {
          provide: BLOB_STORE,
          useFactory: (): Promise<BlobStore> | BlobStore => (isBlobStore(options.blobStore) ? options.blobStore : createBlobStore(options.blobStore)),
        },
        {
          provide: MediaInspector,
          useFactory: () => new MediaInspector(options.probe ?? ((path, probe) => probeMedia(path, { ...probe, ffprobePath: options.ffprobePath })), options.probeTimeoutMs),
        },
        { provide: UploadRepository, inject: [DATA_SOURCE], useFactory: (dataSource: DataSource) => new UploadRepository(dataSource) },
        {
          provide: SourceFetcher,
          useFactory: () =>
            new SourceFetcher({
              maxBytes,
              maxRedirects: options.fetch?.maxRedirects,
              timeoutMs: options.fetch?.timeoutMs,
              allowPrivateAddresses: options.fetch?.allowPrivateAddresses,
              resolve: options.fetch?.resolve,
            }),
        },
        {
          provide: UploadService,
          inject: [UploadRepository, BLOB_STORE, MediaInspector],
          useFactory: (uploads: UploadRepository, blobStore: BlobStore, inspector: MediaInspector) =>
            new UploadService({ uploads, blobStore, inspector, maxBytes, tempRoot: options.tempDir }),
        },
        {
          provide: MediaIntakeService,
          inject: [UploadRepository, BLOB_STORE, MediaInspector, SourceFetcher, DATA_SOURCE],
          useFactory: (uploads: UploadRepository, blobStore: BlobStore, inspector: MediaInspector, fetcher: SourceFetcher, dataSource: DataSource) =>
            new MediaIntakeService({ uploads, blobStore, inspector, fetcher, staging: new StagedSourceRepository(dataSource), tempRoot: options.tempDir }),
        },
        {
          provide: MEDIA_INTAKE,
          inject: [MediaIntakeService],
          useFactory: (intake: MediaIntakeService) => (options.prepareSources === false ? intake.withoutProbing() : intake),
        },
      ],
      exports: [UploadService, MediaIntakeService, MEDIA_INTAKE, BLOB_STORE],
    };
  }

  /** Closes the connections the fetcher keeps alive. */
  onApplicationShutdown(): Promise<void> {
    return this.fetcher.close();
  }
}

function isBlobStore(value: IntakeModuleOptions['blobStore']): value is BlobStore {
  return typeof (value as BlobStore).putFile === 'function';
}
