export { BLUETOOTH_RECORD_KIND, checkBluetoothLine, parseBluetoothLines, parseBluetoothUpload } from "./bluetooth-upload.ts";
