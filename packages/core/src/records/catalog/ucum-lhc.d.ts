// Minimal types for the parts of @lhncbc/ucum-lhc that we use (the package ships none).
declare module "@lhncbc/ucum-lhc" {
  interface ValidateResult {
    status: "valid" | "invalid" | "error";
    ucumCode: string | null;
    msg: string[];
  }

  interface ConvertResult {
    status: "succeeded" | "failed" | "error";
    toVal: number | null;
    msg: string[];
  }

  interface UcumLhcUtils {
    validateUnitString(unit: string, suggest?: boolean): ValidateResult;
    convertUnitTo(
      fromUnit: string,
      fromValue: number,
      toUnit: string,
      options?: { suggest?: boolean; molecularWeight?: number | null },
    ): ConvertResult;
  }

  const ucum: {
    UcumLhcUtils: { getInstance(): UcumLhcUtils };
  };
  export default ucum;
}
