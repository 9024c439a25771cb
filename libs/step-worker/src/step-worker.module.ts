import { Module, type DynamicModule } from '@nestjs/common';
import { STEP_EXECUTOR, type StepExecutor } from './step-executor';
import { STEP_WORKER_OPTIONS, type StepWorkerOptions } from './step-worker.options';
import { StepWorkerService } from './step-worker.service';

/** Wires a step worker around the app's executor. */
@Module({})
export class StepWorkerModule {
  static forRoot(options: StepWorkerOptions, executor: StepExecutor): DynamicModule {
    return {
      module: StepWorkerModule,
      providers: [
        { provide: STEP_WORKER_OPTIONS, useValue: options },
        { provide: STEP_EXECUTOR, useValue: executor },
        StepWorkerService,
      ],
    };
  }
}
