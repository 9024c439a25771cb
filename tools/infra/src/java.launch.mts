/**
 * JVM command lines for the Kafka broker and its CLI tools (`jars/kafka`) and for
 * the Connect worker (`jars/connect`, a different Kafka line: see connect.pom.xml).
 */
import { join } from 'node:path';

import type { JarSet } from './maven.resolver.mts';
import type { StackConfig } from './stack.config.mts';

export function kafkaJars(config: StackConfig): JarSet {
  return { name: 'kafka', pom: 'kafka.pom.xml', outputDir: join(config.layout.jars, 'kafka') };
}

export function connectJars(config: StackConfig): JarSet {
  return { name: 'connect', pom: 'connect.pom.xml', outputDir: join(config.layout.jars, 'connect') };
}

/** Heap for the long-running JVMs; two of them plus Postgres and four services fit in a few GiB. */
const SERVER_HEAP = ['-Xms256m', '-Xmx768m'];

/** Arguments for `java` running `mainClass` from `jars`; `server` adds the long-running heap and GC settings. */
export function javaArgs(config: StackConfig, jars: JarSet, mainClass: string, args: readonly string[], server: boolean): string[] {
  return [
    ...(server ? [...SERVER_HEAP, '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:+ExplicitGCInvokesConcurrent'] : ['-Xmx256m']),
    '-Djava.awt.headless=true',
    `-Dlog4j2.configurationFile=${join(config.repoRoot, 'infra', 'kafka', server ? 'log4j2.xml' : 'log4j2-tools.xml')}`,
    '-cp',
    `${jars.outputDir}/*`,
    mainClass,
    ...args,
  ];
}
