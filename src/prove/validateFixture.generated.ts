// @ts-nocheck
// generated from schema/fixture.schema.json by scripts/generate-validator.mjs: do not edit.
"use strict";
export const validate = validate20;
export default validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/hookrun/hookrun/schema/fixture.schema.json","title":"hookrun test fixture","type":"object","if":{"properties":{"fixtures":true},"required":["fixtures"]},"then":{"properties":{"$schema":{},"fixtures":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/fixture"}}},"additionalProperties":false},"else":{"$ref":"#/$defs/fixture"},"$defs":{"fixture":{"type":"object","required":["event","expect"],"properties":{"$schema":{"type":"string"},"name":{"type":"string","minLength":1},"description":{"type":"string"},"event":{"type":"string","minLength":1},"host":{"enum":["claude","codex","gemini","copilot","qwen","cursor","droid","windsurf","cline","agent-code","qoder","crush","letta","goose","grok","kimi","pi","opencode"]},"context":{"type":"object"},"context_file":{"type":"string","minLength":1},"env":{"type":"object","additionalProperties":{"type":"string"}},"expect":{"$ref":"#/$defs/expect"}},"additionalProperties":false,"not":{"properties":{"context":true,"context_file":true},"required":["context","context_file"]}},"expect":{"type":"object","minProperties":1,"properties":{"decision":{"enum":["block","allow","ask","defer","none"]},"reason":{"$ref":"#/$defs/text"},"messages":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/text"}},"additional_context":{"$ref":"#/$defs/text"},"updated_input":{},"continue":{"type":"boolean"},"stop_reason":{"$ref":"#/$defs/text"},"hooks_ran":{"type":"array","items":{"type":"string"}},"async_started":{"type":"array","items":{"type":"string"}},"exit_code":{"type":"integer","minimum":0,"maximum":255}},"additionalProperties":false},"text":{"anyOf":[{"type":"string"},{"type":"object","required":["pattern"],"properties":{"pattern":{"type":"string"}},"additionalProperties":false}]}}};
const schema32 = {"type":"object","required":["event","expect"],"properties":{"$schema":{"type":"string"},"name":{"type":"string","minLength":1},"description":{"type":"string"},"event":{"type":"string","minLength":1},"host":{"enum":["claude","codex","gemini","copilot","qwen","cursor","droid","windsurf","cline","agent-code","qoder","crush","letta","goose","grok","kimi","pi","opencode"]},"context":{"type":"object"},"context_file":{"type":"string","minLength":1},"env":{"type":"object","additionalProperties":{"type":"string"}},"expect":{"$ref":"#/$defs/expect"}},"additionalProperties":false,"not":{"properties":{"context":true,"context_file":true},"required":["context","context_file"]}};
const func1 = Object.prototype.hasOwnProperty;
const schema33 = {"type":"object","minProperties":1,"properties":{"decision":{"enum":["block","allow","ask","defer","none"]},"reason":{"$ref":"#/$defs/text"},"messages":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/text"}},"additional_context":{"$ref":"#/$defs/text"},"updated_input":{},"continue":{"type":"boolean"},"stop_reason":{"$ref":"#/$defs/text"},"hooks_ran":{"type":"array","items":{"type":"string"}},"async_started":{"type":"array","items":{"type":"string"}},"exit_code":{"type":"integer","minimum":0,"maximum":255}},"additionalProperties":false};
const schema34 = {"anyOf":[{"type":"string"},{"type":"object","required":["pattern"],"properties":{"pattern":{"type":"string"}},"additionalProperties":false}]};

function validate22(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate22.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(Object.keys(data).length < 1){
const err0 = {instancePath,schemaPath:"#/minProperties",keyword:"minProperties",params:{limit: 1},message:"must NOT have fewer than 1 properties"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!(func1.call(schema33.properties, key0))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.decision !== undefined){
let data0 = data.decision;
if(!(((((data0 === "block") || (data0 === "allow")) || (data0 === "ask")) || (data0 === "defer")) || (data0 === "none"))){
const err2 = {instancePath:instancePath+"/decision",schemaPath:"#/properties/decision/enum",keyword:"enum",params:{allowedValues: schema33.properties.decision.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.reason !== undefined){
let data1 = data.reason;
const _errs5 = errors;
let valid2 = false;
const _errs6 = errors;
if(typeof data1 !== "string"){
const err3 = {instancePath:instancePath+"/reason",schemaPath:"#/$defs/text/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
var _valid0 = _errs6 === errors;
valid2 = valid2 || _valid0;
const _errs8 = errors;
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.pattern === undefined){
const err4 = {instancePath:instancePath+"/reason",schemaPath:"#/$defs/text/anyOf/1/required",keyword:"required",params:{missingProperty: "pattern"},message:"must have required property '"+"pattern"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
for(const key1 in data1){
if(!(key1 === "pattern")){
const err5 = {instancePath:instancePath+"/reason",schemaPath:"#/$defs/text/anyOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data1.pattern !== undefined){
if(typeof data1.pattern !== "string"){
const err6 = {instancePath:instancePath+"/reason/pattern",schemaPath:"#/$defs/text/anyOf/1/properties/pattern/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
else {
const err7 = {instancePath:instancePath+"/reason",schemaPath:"#/$defs/text/anyOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
var _valid0 = _errs8 === errors;
valid2 = valid2 || _valid0;
if(!valid2){
const err8 = {instancePath:instancePath+"/reason",schemaPath:"#/$defs/text/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
else {
errors = _errs5;
if(vErrors !== null){
if(_errs5){
vErrors.length = _errs5;
}
else {
vErrors = null;
}
}
}
}
if(data.messages !== undefined){
let data3 = data.messages;
if(Array.isArray(data3)){
if(data3.length < 1){
const err9 = {instancePath:instancePath+"/messages",schemaPath:"#/properties/messages/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
let data4 = data3[i0];
const _errs17 = errors;
let valid7 = false;
const _errs18 = errors;
if(typeof data4 !== "string"){
const err10 = {instancePath:instancePath+"/messages/" + i0,schemaPath:"#/$defs/text/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
var _valid1 = _errs18 === errors;
valid7 = valid7 || _valid1;
const _errs20 = errors;
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
if(data4.pattern === undefined){
const err11 = {instancePath:instancePath+"/messages/" + i0,schemaPath:"#/$defs/text/anyOf/1/required",keyword:"required",params:{missingProperty: "pattern"},message:"must have required property '"+"pattern"+"'"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
for(const key2 in data4){
if(!(key2 === "pattern")){
const err12 = {instancePath:instancePath+"/messages/" + i0,schemaPath:"#/$defs/text/anyOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data4.pattern !== undefined){
if(typeof data4.pattern !== "string"){
const err13 = {instancePath:instancePath+"/messages/" + i0+"/pattern",schemaPath:"#/$defs/text/anyOf/1/properties/pattern/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
}
else {
const err14 = {instancePath:instancePath+"/messages/" + i0,schemaPath:"#/$defs/text/anyOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var _valid1 = _errs20 === errors;
valid7 = valid7 || _valid1;
if(!valid7){
const err15 = {instancePath:instancePath+"/messages/" + i0,schemaPath:"#/$defs/text/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
else {
errors = _errs17;
if(vErrors !== null){
if(_errs17){
vErrors.length = _errs17;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err16 = {instancePath:instancePath+"/messages",schemaPath:"#/properties/messages/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.additional_context !== undefined){
let data6 = data.additional_context;
const _errs27 = errors;
let valid10 = false;
const _errs28 = errors;
if(typeof data6 !== "string"){
const err17 = {instancePath:instancePath+"/additional_context",schemaPath:"#/$defs/text/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
var _valid2 = _errs28 === errors;
valid10 = valid10 || _valid2;
const _errs30 = errors;
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
if(data6.pattern === undefined){
const err18 = {instancePath:instancePath+"/additional_context",schemaPath:"#/$defs/text/anyOf/1/required",keyword:"required",params:{missingProperty: "pattern"},message:"must have required property '"+"pattern"+"'"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
for(const key3 in data6){
if(!(key3 === "pattern")){
const err19 = {instancePath:instancePath+"/additional_context",schemaPath:"#/$defs/text/anyOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data6.pattern !== undefined){
if(typeof data6.pattern !== "string"){
const err20 = {instancePath:instancePath+"/additional_context/pattern",schemaPath:"#/$defs/text/anyOf/1/properties/pattern/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
else {
const err21 = {instancePath:instancePath+"/additional_context",schemaPath:"#/$defs/text/anyOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
var _valid2 = _errs30 === errors;
valid10 = valid10 || _valid2;
if(!valid10){
const err22 = {instancePath:instancePath+"/additional_context",schemaPath:"#/$defs/text/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
else {
errors = _errs27;
if(vErrors !== null){
if(_errs27){
vErrors.length = _errs27;
}
else {
vErrors = null;
}
}
}
}
if(data.continue !== undefined){
if(typeof data.continue !== "boolean"){
const err23 = {instancePath:instancePath+"/continue",schemaPath:"#/properties/continue/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data.stop_reason !== undefined){
let data9 = data.stop_reason;
const _errs39 = errors;
let valid13 = false;
const _errs40 = errors;
if(typeof data9 !== "string"){
const err24 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/$defs/text/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
var _valid3 = _errs40 === errors;
valid13 = valid13 || _valid3;
const _errs42 = errors;
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
if(data9.pattern === undefined){
const err25 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/$defs/text/anyOf/1/required",keyword:"required",params:{missingProperty: "pattern"},message:"must have required property '"+"pattern"+"'"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
for(const key4 in data9){
if(!(key4 === "pattern")){
const err26 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/$defs/text/anyOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data9.pattern !== undefined){
if(typeof data9.pattern !== "string"){
const err27 = {instancePath:instancePath+"/stop_reason/pattern",schemaPath:"#/$defs/text/anyOf/1/properties/pattern/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
else {
const err28 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/$defs/text/anyOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
var _valid3 = _errs42 === errors;
valid13 = valid13 || _valid3;
if(!valid13){
const err29 = {instancePath:instancePath+"/stop_reason",schemaPath:"#/$defs/text/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
else {
errors = _errs39;
if(vErrors !== null){
if(_errs39){
vErrors.length = _errs39;
}
else {
vErrors = null;
}
}
}
}
if(data.hooks_ran !== undefined){
let data11 = data.hooks_ran;
if(Array.isArray(data11)){
const len1 = data11.length;
for(let i1=0; i1<len1; i1++){
if(typeof data11[i1] !== "string"){
const err30 = {instancePath:instancePath+"/hooks_ran/" + i1,schemaPath:"#/properties/hooks_ran/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
}
else {
const err31 = {instancePath:instancePath+"/hooks_ran",schemaPath:"#/properties/hooks_ran/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
if(data.async_started !== undefined){
let data13 = data.async_started;
if(Array.isArray(data13)){
const len2 = data13.length;
for(let i2=0; i2<len2; i2++){
if(typeof data13[i2] !== "string"){
const err32 = {instancePath:instancePath+"/async_started/" + i2,schemaPath:"#/properties/async_started/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
}
else {
const err33 = {instancePath:instancePath+"/async_started",schemaPath:"#/properties/async_started/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data.exit_code !== undefined){
let data15 = data.exit_code;
if(!(((typeof data15 == "number") && (!(data15 % 1) && !isNaN(data15))) && (isFinite(data15)))){
const err34 = {instancePath:instancePath+"/exit_code",schemaPath:"#/properties/exit_code/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
if((typeof data15 == "number") && (isFinite(data15))){
if(data15 > 255 || isNaN(data15)){
const err35 = {instancePath:instancePath+"/exit_code",schemaPath:"#/properties/exit_code/maximum",keyword:"maximum",params:{comparison: "<=", limit: 255},message:"must be <= 255"};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
if(data15 < 0 || isNaN(data15)){
const err36 = {instancePath:instancePath+"/exit_code",schemaPath:"#/properties/exit_code/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
}
}
else {
const err37 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
validate22.errors = vErrors;
return errors === 0;
}
validate22.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate21.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
const _errs1 = errors;
const _errs2 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if(((data.context === undefined) && (missing0 = "context")) || ((data.context_file === undefined) && (missing0 = "context_file"))){
const err0 = {};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
var valid0 = _errs2 === errors;
if(valid0){
const err1 = {instancePath,schemaPath:"#/not",keyword:"not",params:{},message:"must NOT be valid"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
else {
errors = _errs1;
if(vErrors !== null){
if(_errs1){
vErrors.length = _errs1;
}
else {
vErrors = null;
}
}
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.event === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "event"},message:"must have required property '"+"event"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.expect === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "expect"},message:"must have required property '"+"expect"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
for(const key0 in data){
if(!(func1.call(schema32.properties, key0))){
const err4 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.$schema !== undefined){
if(typeof data.$schema !== "string"){
const err5 = {instancePath:instancePath+"/$schema",schemaPath:"#/properties/%24schema/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.name !== undefined){
let data1 = data.name;
if(typeof data1 === "string"){
if(data1.length < 1){
const err6 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.description !== undefined){
if(typeof data.description !== "string"){
const err8 = {instancePath:instancePath+"/description",schemaPath:"#/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.event !== undefined){
let data3 = data.event;
if(typeof data3 === "string"){
if(data3.length < 1){
const err9 = {instancePath:instancePath+"/event",schemaPath:"#/properties/event/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/event",schemaPath:"#/properties/event/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.host !== undefined){
let data4 = data.host;
if(!((((((((((((((((((data4 === "claude") || (data4 === "codex")) || (data4 === "gemini")) || (data4 === "copilot")) || (data4 === "qwen")) || (data4 === "cursor")) || (data4 === "droid")) || (data4 === "windsurf")) || (data4 === "cline")) || (data4 === "agent-code")) || (data4 === "qoder")) || (data4 === "crush")) || (data4 === "letta")) || (data4 === "goose")) || (data4 === "grok")) || (data4 === "kimi")) || (data4 === "pi")) || (data4 === "opencode"))){
const err11 = {instancePath:instancePath+"/host",schemaPath:"#/properties/host/enum",keyword:"enum",params:{allowedValues: schema32.properties.host.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.context !== undefined){
let data5 = data.context;
if(!(data5 && typeof data5 == "object" && !Array.isArray(data5))){
const err12 = {instancePath:instancePath+"/context",schemaPath:"#/properties/context/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.context_file !== undefined){
let data6 = data.context_file;
if(typeof data6 === "string"){
if(data6.length < 1){
const err13 = {instancePath:instancePath+"/context_file",schemaPath:"#/properties/context_file/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/context_file",schemaPath:"#/properties/context_file/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.env !== undefined){
let data7 = data.env;
if(data7 && typeof data7 == "object" && !Array.isArray(data7)){
for(const key1 in data7){
if(typeof data7[key1] !== "string"){
const err15 = {instancePath:instancePath+"/env/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/env/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath:instancePath+"/env",schemaPath:"#/properties/env/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.expect !== undefined){
if(!(validate22(data.expect, {instancePath:instancePath+"/expect",parentData:data,parentDataProperty:"expect",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
}
}
else {
const err17 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
validate21.errors = vErrors;
return errors === 0;
}
validate21.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://github.com/hookrun/hookrun/schema/fixture.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(!(data && typeof data == "object" && !Array.isArray(data))){
const err0 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
const _errs1 = errors;
let valid0 = true;
const _errs2 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((data.fixtures === undefined) && (missing0 = "fixtures")){
const err1 = {};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
var _valid0 = _errs2 === errors;
errors = _errs1;
if(vErrors !== null){
if(_errs1){
vErrors.length = _errs1;
}
else {
vErrors = null;
}
}
let ifClause0;
if(_valid0){
const _errs3 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!((key0 === "$schema") || (key0 === "fixtures"))){
const err2 = {instancePath,schemaPath:"#/then/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.fixtures !== undefined){
let data0 = data.fixtures;
if(Array.isArray(data0)){
if(data0.length < 1){
const err3 = {instancePath:instancePath+"/fixtures",schemaPath:"#/then/properties/fixtures/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
if(!(validate21(data0[i0], {instancePath:instancePath+"/fixtures/" + i0,parentData:data0,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
}
else {
const err4 = {instancePath:instancePath+"/fixtures",schemaPath:"#/then/properties/fixtures/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
var _valid0 = _errs3 === errors;
valid0 = _valid0;
if(valid0){
var props0 = true;
}
ifClause0 = "then";
}
else {
const _errs8 = errors;
if(!(validate21(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
var _valid0 = _errs8 === errors;
valid0 = _valid0;
if(valid0){
if(props0 !== true){
props0 = true;
}
}
ifClause0 = "else";
}
if(!valid0){
const err5 = {instancePath,schemaPath:"#/if",keyword:"if",params:{failingKeyword: ifClause0},message:"must match \""+ifClause0+"\" schema"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
validate20.errors = vErrors;
evaluated0.props = props0;
return errors === 0;
}
validate20.evaluated = {"dynamicProps":true,"dynamicItems":false};
