/** A tokenizer worker that dies at once, for the fallback test (worker_threads scope: exits the thread). */
process.exit(3);
