/** The line a Pact worker writes on stdout and stderr after each job: the job's output ends there. */
export const JOB_END = "\u0000idp-pact-job-end\u0000";
