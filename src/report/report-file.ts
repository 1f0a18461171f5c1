// Where a run's HTML report lives: one file at the top of its run directory, so audio paths inside it are the
// rows' own relative artifact paths and the directory can be zipped as it is.

export const REPORT_FILE_NAME = 'report.html'
export const COMPARISON_FILE_NAME = 'comparison.html'
