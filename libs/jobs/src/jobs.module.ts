import { Module } from '@nestjs/common';
import { CreateJobService } from './create-job/create-job.service';
import { GetJobService } from './get-job/get-job.service';
import { JobSagaService } from './saga/job-saga.service';

/** The api's job use cases and the saga that drives jobs to the end. */
@Module({
  providers: [CreateJobService, GetJobService, JobSagaService],
  exports: [CreateJobService, GetJobService],
})
export class JobsModule {}
