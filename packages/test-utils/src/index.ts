export { readmeExampleTests } from "./readme-example.ts";
