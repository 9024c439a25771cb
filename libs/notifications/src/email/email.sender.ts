import { createTransport, type Transporter } from 'nodemailer';
import type { JobLifecycleV1 } from '@longhaul/contracts';
import { DELIVERED, type AttemptResult } from '../deliveries/attempt.result';
import { renderJobEmail } from './email.templates';
import { classifySmtpError } from './smtp-error.policy';

/** SMTP settings (`SMTP_*`, `MAIL_FROM`). */
export interface SmtpOptions {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
  /** Connect, greeting and idle socket limit. */
  timeoutMs: number;
  /** Base of the job links in mails (`PUBLIC_API_URL`). */
  publicApiUrl: string;
}

/**
 * Sends the email of a job event over SMTP (nodemailer). The `Message-ID` is the delivery's, the
 * same on every attempt, so a mail system that sees a retry of a mail it already has can tell.
 */
export class EmailSender {
  private readonly transport: Transporter;

  constructor(private readonly options: SmtpOptions) {
    this.transport = createTransport({
      host: options.host,
      port: options.port,
      secure: options.secure,
      auth: options.user ? { user: options.user, pass: options.password ?? '' } : undefined,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    });
  }

  async send(to: string, messageId: string, event: JobLifecycleV1): Promise<AttemptResult> {
    const mail = renderJobEmail(event, this.options.publicApiUrl);
    try {
      await this.transport.sendMail({
        from: this.options.from,
        to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId,
        headers: { 'X-Longhaul-Job-Id': event.jobId, 'X-Longhaul-Event': `job.${event.status}` },
      });
      return DELIVERED;
    } catch (error) {
      return classifySmtpError(error);
    }
  }

  close(): void {
    this.transport.close();
  }
}
